import { isPlainObject } from "./key-path.js";

/** OpenClaw keys this gateway knows and does not take, each with why: dropped with that reason rather than called unknown. */
const UNSUPPORTED: { path: string[]; reason: string }[] = [
  {
    path: ["messages", "suppressToolErrors"],
    reason: "it is retired, as in OpenClaw: no separate tool-failure warnings are posted to chats (only /verbose shows tool calls)",
  },
  ...(["video", "music"] as const).map((kind) => ({
    path: ["agents", "defaults", "mediaModels", kind],
    reason: `${kind} generation (OpenClaw's ${kind}_generate) is not supported by this gateway; only image generation is`,
  })),
  {
    path: ["tts", "summaryModel"],
    reason: "summarizing long replies for Auto-TTS is not supported by this gateway: a reply over the limit is cut (see docs/tools.md#auto-tts)",
  },
  ...["persona", "personas"].map((key) => ({
    path: ["tts", key],
    reason: "TTS personas are not supported by this gateway: set the voice in tts.providers.<id>",
  })),
  {
    path: ["tts", "modelOverrides"],
    reason: "[[tts:...]] directives are not supported by this gateway: the model speaks through the tts tool",
  },
  {
    path: ["tts", "prefsPath"],
    reason: "a TTS preferences file is not supported by this gateway: /tts on|off is kept on the session (sessions.json) and tts.enable/tts.disable under the state dir",
  },
  ...["metrics", "logs", "metricsEndpoint", "logsEndpoint", "logsExporter", "metricNamePrefix"].map((key) => ({
    path: ["diagnostics", "otel", key],
    reason: "it is not supported: this gateway exports run traces only",
  })),
  {
    path: ["tools", "web", "x_search"],
    reason: "it is OpenClaw's older place for x_search's settings, which live in plugins.entries.xai.config.xSearch (move them there)",
  },
  ...[
    ["cdpUrl", "remote CDP browsers are not supported: the gateway launches its own managed browser"],
    ["attachOnly", "attaching to a running browser is not supported: the gateway launches its own managed browser"],
    ["profiles", "only the managed openclaw profile exists here (no extra profiles, no existing-session attach)"],
    ["defaultProfile", "only the managed openclaw profile exists here"],
    ["evaluateEnabled", "act:evaluate (page JavaScript) is not offered here, so there is nothing to switch"],
    ["tabCleanup", "idle and per-session tab sweeps are not run here"],
    ["snapshotDefaults", "snapshots here always use the AI tree with refs"],
    ["extraArgs", "extra Chromium arguments are not supported (a --proxy-server would bypass the browser's SSRF policy)"],
    ["color", "the managed profile is not tinted here"],
  ].map(([key, reason]) => ({ path: ["browser", key!], reason: reason! })),
];

/** The config without the keys above, a warning for each one it had. The input is not mutated. */
export function dropUnsupportedKeys(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  let out = raw;
  for (const { path, reason } of UNSUPPORTED) {
    const parents: Record<string, unknown>[] = [out];
    for (const segment of path.slice(0, -1)) {
      const next = parents.at(-1)![segment];
      if (!isPlainObject(next)) break;
      parents.push(next);
    }
    const leaf = path.at(-1)!;
    if (parents.length !== path.length || !(leaf in parents.at(-1)!)) continue;
    warnings.push(`${path.join(".")} was ignored: ${reason} (remove it)`);
    // Rebuild the path without the key, copying each object on the way.
    let rebuilt: Record<string, unknown> = { ...parents.at(-1)! };
    delete rebuilt[leaf];
    for (let depth = path.length - 2; depth >= 0; depth -= 1) rebuilt = { ...parents[depth]!, [path[depth]!]: rebuilt };
    out = rebuilt;
  }
  return out;
}

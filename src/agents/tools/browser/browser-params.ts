import { Type, type Static } from "@sinclair/typebox";

/** The actions this gateway's browser runs. */
export const SUPPORTED_BROWSER_ACTIONS = [
  "status",
  "start",
  "stop",
  "tabs",
  "open",
  "focus",
  "close",
  "navigate",
  "snapshot",
  "screenshot",
  "act",
  "text",
  "errors",
  "requests",
] as const;
/** OpenClaw's other browser actions: named so a call of one is refused as not supported here, not as unknown. */
export const UNSUPPORTED_BROWSER_ACTIONS = ["doctor", "profiles", "emulate", "pdf", "console", "dialog", "download", "upload", "waitfordownload", "importprofile"] as const;
export const ACT_KINDS = ["click", "type", "press", "hover", "select", "fill", "wait"] as const;
/** OpenClaw's other act kinds, refused as not supported here. */
const UNSUPPORTED_ACT_KINDS = ["drag", "scrollIntoView", "evaluate", "resize", "close", "batch"] as const;

export const SNAPSHOT_DEFAULT_MAX_CHARS = 20_000;
export const SNAPSHOT_MAX_CHARS = 100_000;
/** OpenClaw's `text` default and cap. */
export const TEXT_MAX_CHARS = 40_000;
export const LOG_DEFAULT_LIMIT = 50;
export const WAIT_MAX_MS = 30_000;

export const BrowserParameters = Type.Object({
  action: Type.Union(
    [...SUPPORTED_BROWSER_ACTIONS, ...UNSUPPORTED_BROWSER_ACTIONS].map((a) => Type.Literal(a)),
    { description: `One of: ${SUPPORTED_BROWSER_ACTIONS.join(", ")}.` },
  ),
  targetId: Type.Optional(Type.String({ description: "A tab id from tabs or open (t1, t2, …); default: the current tab." })),
  url: Type.Optional(Type.String({ description: "open, navigate: the http(s) URL." })),
  query: Type.Optional(Type.String({ description: "snapshot: keep only lines containing every word of this (any case); refs stay." })),
  maxChars: Type.Optional(
    Type.Integer({ minimum: 1, description: `snapshot (default ${SNAPSHOT_DEFAULT_MAX_CHARS}), text (default and most ${TEXT_MAX_CHARS}): characters returned.` }),
  ),
  selector: Type.Optional(Type.String({ description: "text: a CSS selector whose first match is read (default: article, main, else body)." })),
  fullPage: Type.Optional(Type.Boolean({ description: "screenshot: the whole page rather than the viewport." })),
  ref: Type.Optional(Type.String({ description: "act, screenshot: an element ref from the latest snapshot (e.g. e12)." })),
  kind: Type.Optional(
    Type.Union(
      [...ACT_KINDS, ...UNSUPPORTED_ACT_KINDS].map((k) => Type.Literal(k)),
      { description: `act: ${ACT_KINDS.join(", ")}.` },
    ),
  ),
  text: Type.Optional(Type.String({ description: "act type/fill: the text; act wait: text to wait for." })),
  textGone: Type.Optional(Type.String({ description: "act wait: text to wait to disappear." })),
  timeMs: Type.Optional(Type.Integer({ minimum: 0, maximum: WAIT_MAX_MS, description: `act wait: milliseconds to wait (at most ${WAIT_MAX_MS}).` })),
  submit: Type.Optional(Type.Boolean({ description: "act type: press Enter after typing." })),
  key: Type.Optional(Type.String({ description: "act press: a key such as Enter, Tab, ArrowDown, Control+A." })),
  values: Type.Optional(Type.Array(Type.String(), { description: "act select: the option values or labels to select." })),
  doubleClick: Type.Optional(Type.Boolean({ description: "act click: double-click." })),
  filter: Type.Optional(Type.String({ description: "requests: keep entries whose URL or resource type contains this." })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: `errors, requests: the most recent entries to return (default ${LOG_DEFAULT_LIMIT}).` })),
  clear: Type.Optional(Type.Boolean({ description: "errors, requests: empty the log after reading it." })),
  profile: Type.Optional(Type.String({ description: 'Only "openclaw" exists here.' })),
  target: Type.Optional(Type.String({ description: 'Only "host" exists here.' })),
});
export type BrowserArgs = Static<typeof BrowserParameters>;
export type SupportedBrowserAction = (typeof SUPPORTED_BROWSER_ACTIONS)[number];
export type ActKind = (typeof ACT_KINDS)[number];

/** A checked call: the action to run, or what is wrong with it (the field and the problem). */
export type CheckedBrowserCall = { ok: true; action: SupportedBrowserAction } | { ok: false; field: string; problem: string; unsupported?: boolean };

const needsUrl = new Set<string>(["open", "navigate"]);

/** The checks the schema cannot state: what each action needs, and what is not supported here. */
export function checkBrowserArgs(args: BrowserArgs): CheckedBrowserCall {
  if ((UNSUPPORTED_BROWSER_ACTIONS as readonly string[]).includes(args.action)) {
    return {
      ok: false,
      field: "action",
      problem: `"${args.action}" is not supported by this gateway's browser (supported: ${SUPPORTED_BROWSER_ACTIONS.join(", ")})`,
      unsupported: true,
    };
  }
  if (args.profile !== undefined && args.profile !== "openclaw") {
    return {
      ok: false,
      field: "profile",
      problem: `only the managed "openclaw" profile is supported here (attaching to your own browser, other profiles and remote CDP are not)`,
      unsupported: true,
    };
  }
  if (args.target !== undefined && args.target !== "host") {
    return { ok: false, field: "target", problem: `only target "host" is supported here (no sandbox browser, no browser nodes)`, unsupported: true };
  }
  const action = args.action as SupportedBrowserAction;
  if (needsUrl.has(action) && !args.url?.trim()) return { ok: false, field: "url", problem: `${action} needs url` };
  if (action === "focus" || action === "close") {
    if (!args.targetId?.trim()) return { ok: false, field: "targetId", problem: `${action} needs targetId (see tabs)` };
  }
  if (action === "text" && args.maxChars !== undefined && args.maxChars > TEXT_MAX_CHARS) {
    return { ok: false, field: "maxChars", problem: `text returns at most ${TEXT_MAX_CHARS} characters` };
  }
  if (action === "snapshot" && args.maxChars !== undefined && args.maxChars > SNAPSHOT_MAX_CHARS) {
    return { ok: false, field: "maxChars", problem: `snapshot returns at most ${SNAPSHOT_MAX_CHARS} characters` };
  }
  if (action === "act") {
    const problem = actProblem(args);
    if (problem) return { ok: false, ...problem };
  }
  return { ok: true, action };
}

function actProblem(args: BrowserArgs): { field: string; problem: string; unsupported?: boolean } | undefined {
  const kind = args.kind;
  if (!kind) return { field: "kind", problem: `act needs kind: ${ACT_KINDS.join(", ")}` };
  if (!(ACT_KINDS as readonly string[]).includes(kind)) {
    return { field: "kind", problem: `act kind "${kind}" is not supported by this gateway's browser (supported: ${ACT_KINDS.join(", ")})`, unsupported: true };
  }
  const needsRef = kind === "click" || kind === "type" || kind === "hover" || kind === "select" || kind === "fill";
  if (needsRef && !args.ref?.trim()) return { field: "ref", problem: `act ${kind} needs ref, an element ref from snapshot (e.g. e12)` };
  if ((kind === "type" || kind === "fill") && args.text === undefined) return { field: "text", problem: `act ${kind} needs text` };
  if (kind === "press" && !args.key?.trim()) return { field: "key", problem: "act press needs key (e.g. Enter)" };
  if (kind === "select" && (!args.values || args.values.length === 0)) return { field: "values", problem: "act select needs values" };
  if (kind === "wait" && args.timeMs === undefined && args.text === undefined && args.textGone === undefined) {
    return { field: "kind", problem: "act wait needs timeMs, text or textGone" };
  }
  return undefined;
}

/** Lines of a snapshot containing every whitespace-separated token of `query`, ignoring case. */
export function filterSnapshotLines(snapshot: string, query: string): { text: string; matches: number } {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return { text: snapshot, matches: snapshot.split("\n").length };
  const kept = snapshot.split("\n").filter((line) => {
    const lower = line.toLowerCase();
    return tokens.every((token) => lower.includes(token));
  });
  return { text: kept.join("\n"), matches: kept.length };
}

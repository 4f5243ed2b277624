import { LRUCache } from "lru-cache";

export interface RuntimeInfo {
  agentId: string;
  host: string;
  /** The repository the agent works in (`agents.defaults.repoRoot`, else found above the workspace). */
  repo?: string;
  /** e.g. "linux 6.8.0 (x64)". */
  os: string;
  /** e.g. "v20.19.0". */
  node: string;
  /** "provider/model". */
  model: string;
  channel?: string;
  capabilities?: string[];
}

function clean(value: string | undefined): string {
  // One line, and no " | " that would read as a field separator.
  return (value ?? "").replace(/\s+/g, " ").replace(/\|/g, "/").trim();
}

/**
 * `Runtime: agent=main | host=box | repo=/home/me/app | os=linux (x64) | node=v20.19.0 | model=anthropic/claude-x`
 * (see docs/agents.md). Empty fields are left out; capabilities are shown only with a channel,
 * because they describe what that channel can render.
 */
export function formatRuntimeLine(runtime: RuntimeInfo): string {
  // The same few agents, models and channels come back turn after turn.
  const key = `${runtime.agentId}\u0000${runtime.host}\u0000${runtime.repo ?? ""}\u0000${runtime.os}\u0000${runtime.node}\u0000${runtime.model}\u0000${runtime.channel ?? ""}\u0000${runtime.capabilities?.join("\u0001") ?? ""}`;
  let line = lines.get(key);
  if (line === undefined) {
    line = buildRuntimeLine(runtime);
    lines.set(key, line);
  }
  return line;
}

const lines = new LRUCache<string, string>({ max: 64 });

function buildRuntimeLine(runtime: RuntimeInfo): string {
  const fields: [string, string][] = [
    ["agent", clean(runtime.agentId)],
    ["host", clean(runtime.host)],
    ["repo", clean(runtime.repo)],
    ["os", clean(runtime.os)],
    ["node", clean(runtime.node)],
    ["model", clean(runtime.model)],
    ["channel", clean(runtime.channel)],
  ];
  if (clean(runtime.channel)) {
    const capabilities = (runtime.capabilities ?? []).map(clean).filter(Boolean);
    fields.push(["capabilities", capabilities.length > 0 ? capabilities.join(",") : "none"]);
  }
  return `Runtime: ${fields
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}=${value}`)
    .join(" | ")}`;
}

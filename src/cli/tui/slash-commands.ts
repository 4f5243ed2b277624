/**
 * What a line typed into the TUI means. The TUI runs a few commands itself (its own view: agent,
 * session, exit); every other `/command` is a chat command the gateway runs, sent as the message
 * it is, as OpenClaw's TUI does. A line with a newline in it is always a message.
 */
export type TuiInput =
  | { kind: "empty" }
  | { kind: "message"; text: string }
  | { kind: "help" }
  | { kind: "agents" }
  | { kind: "agent"; id: string }
  | { kind: "sessions" }
  | { kind: "session"; key: string }
  | { kind: "new" }
  | { kind: "abort" }
  | { kind: "exit" }
  | { kind: "usage"; message: string };

/** The commands the TUI answers itself, for /help. */
export const TUI_COMMANDS: readonly [string, string][] = [
  ["/help", "this list"],
  ["/agents", "list the gateway's agents"],
  ["/agent <id>", "switch to that agent (its main session)"],
  ["/sessions", "list the current agent's sessions"],
  ["/session <key>", "switch session (main = agent:<current agent>:main)"],
  ["/new", "start a fresh session under a new key"],
  ["/abort", "abort the running reply (also Esc)"],
  ["/exit, /quit", "leave (also Ctrl+D, or Ctrl+C twice)"],
];

export function parseTuiInput(line: string): TuiInput {
  const text = line.trim();
  if (!text) return { kind: "empty" };
  if (!text.startsWith("/") || line.includes("\n")) return { kind: "message", text: line.includes("\n") ? line : text };
  const space = text.search(/\s/);
  const name = (space === -1 ? text : text.slice(0, space)).toLowerCase();
  const arg = space === -1 ? "" : text.slice(space + 1).trim();
  switch (name) {
    case "/help":
      return { kind: "help" };
    case "/agents":
      return { kind: "agents" };
    case "/agent":
      return arg ? { kind: "agent", id: arg } : { kind: "agents" };
    case "/sessions":
      return { kind: "sessions" };
    case "/session":
      return arg ? { kind: "session", key: arg } : { kind: "sessions" };
    case "/new":
      return arg ? { kind: "usage", message: "/new takes no argument: it starts an empty session (send your message after it)" } : { kind: "new" };
    case "/abort":
      return { kind: "abort" };
    case "/exit":
    case "/quit":
      return { kind: "exit" };
    default:
      // A chat command (/status, /model, /think, /reset, /stop …) or an unknown one: the gateway answers it.
      return { kind: "message", text };
  }
}

/**
 * The full key of `/session <key>`: an `agent:<id>:…` key is taken as it is (it may name another
 * agent); any other key belongs to the current agent, so `main` is `agent:<current>:main`.
 */
export function expandSessionKey(key: string, currentAgent: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith("agent:")) return trimmed;
  return `agent:${currentAgent}:${trimmed}`;
}

/** The agent a full session key belongs to (`agent:<id>:…`), or undefined for another shape. */
export function agentOfSessionKey(key: string): string | undefined {
  const match = /^agent:([^:]+):/.exec(key);
  return match ? match[1] : undefined;
}

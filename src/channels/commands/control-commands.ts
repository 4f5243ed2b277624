/**
 * Chat commands handled before the agent (seed 002 "拦截", reference §7.1 step 4). A standalone
 * message starting with `/` and naming one of these is answered by the gateway itself; any
 * other `/text` goes to the agent as ordinary text (skills and users use slashes too).
 */
export interface ParsedCommand {
  name: string;
  args: string;
}

export interface CommandSpec {
  name: string;
  aliases?: string[];
  description: string;
  /** Only senders in `commands.ownerAllowFrom` may run it. */
  ownerOnly?: boolean;
}

export const CONTROL_COMMANDS: readonly CommandSpec[] = [
  { name: "stop", aliases: ["abort", "cancel"], description: "stop the running reply" },
  { name: "new", description: "start a new session (the old transcript is kept on disk)" },
  { name: "reset", description: "same as /new" },
  { name: "status", description: "agent, model, session and token usage" },
  { name: "model", description: "show the model | list | <provider/model or alias> for this session | default", ownerOnly: true },
  { name: "think", aliases: ["t"], description: "show | <level> — thinking level for this session (off, minimal, low, medium, high, xhigh, adaptive, max)", ownerOnly: true },
  { name: "verbose", aliases: ["v"], description: "on | off | full — list tool calls before replies (no argument toggles)" },
  { name: "help", aliases: ["commands"], description: "this list" },
  { name: "whoami", aliases: ["id"], description: "your sender id on this channel" },
  { name: "queue", description: "how messages sent during a reply are handled: steer | followup | collect | interrupt", ownerOnly: true },
  { name: "subagents", description: "list | kill <id> | steer <id> <text> | log <id> | info <id>" },
  { name: "acp", description: "spawn | cancel | steer | close | status | sessions | doctor | help — external coding agents", ownerOnly: true },
  { name: "focus", description: "<#n|label|id> — send this thread's (or chat's) messages to that sub-agent" },
  { name: "unfocus", description: "this thread (or chat) talks to its own session again" },
];

const BY_NAME = new Map<string, CommandSpec>();
for (const spec of CONTROL_COMMANDS) {
  BY_NAME.set(spec.name, spec);
  for (const alias of spec.aliases ?? []) BY_NAME.set(alias, spec);
}

/** `/status`, `/queue collect`; null when the text is not one of our commands. */
export function parseControlCommand(text: string): (ParsedCommand & { spec: CommandSpec }) | null {
  const match = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const spec = BY_NAME.get(match[1]!.toLowerCase());
  if (!spec) return null;
  return { name: spec.name, args: (match[2] ?? "").trim(), spec };
}

export function helpText(): string {
  const lines = CONTROL_COMMANDS.map((c) => `/${c.name}${c.aliases?.length ? ` (/${c.aliases.join(", /")})` : ""} — ${c.description}${c.ownerOnly ? " (owner only)" : ""}`);
  return ["Commands:", ...lines].join("\n");
}

export const QUEUE_MODES = ["steer", "followup", "collect", "interrupt"] as const;
export type ChatQueueMode = (typeof QUEUE_MODES)[number];

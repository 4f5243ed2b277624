import fs from "node:fs";
import path from "node:path";

export interface RecordedEvent {
  type: string;
  action: string;
  sessionKey?: string;
  context: Record<string, any>;
}

/**
 * A managed hook (enable it with `hooks.internal.entries.recorder.enabled`) that appends every
 * message, session and command event it hears to `log`.
 */
export function writeRecorderHook(stateDir: string, log: string): void {
  const dir = path.join(stateDir, "hooks", "recorder");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: recorder\ndescription: records events\nmetadata:\n  openclaw:\n    events: ["message", "session", "command"]\n---\n`);
  fs.writeFileSync(
    path.join(dir, "handler.js"),
    `import fs from "node:fs";
export default async (event) => {
  const context = { ...event.context };
  if (typeof context.content === "string") context.content = context.content.slice(0, 60);
  if (Array.isArray(context.messages)) context.messages = context.messages.map((m) => ({ role: m.role, text: m.text.slice(0, 60) }));
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ type: event.type, action: event.action, sessionKey: event.sessionKey, context }) + "\\n");
};
`,
  );
}

/** The events the recorder hook wrote to `log` so far. */
export function readEvents(log: string): RecordedEvent[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RecordedEvent);
}

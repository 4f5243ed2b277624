import fs from "node:fs/promises";
import path from "node:path";

/** One JSON line per command event in <state>/logs/commands.log. */
export default async function commandLogger(event) {
  const dir = path.join(event.context.stateDir, "logs");
  await fs.mkdir(dir, { recursive: true });
  const line = { ts: new Date(event.timestamp).toISOString(), action: event.action, sessionKey: event.sessionKey ?? null, source: event.context.commandSource ?? null };
  await fs.appendFile(path.join(dir, "commands.log"), `${JSON.stringify(line)}\n`);
}

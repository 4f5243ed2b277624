import fs from "node:fs/promises";
import path from "node:path";

const pad = (n) => String(n).padStart(2, "0");

/** Writes the session's last messages (given by the gateway in event.context.messages) to a dated memory file. */
export default async function sessionMemory(event) {
  const { workspaceDir, messages } = event.context;
  if (typeof workspaceDir !== "string" || !Array.isArray(messages) || messages.length === 0) return;
  const at = new Date(event.timestamp);
  const stamp = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}-${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  const dir = path.join(workspaceDir, "memory");
  await fs.mkdir(dir, { recursive: true });
  const lines = [`# Session before /${event.action} (${at.toISOString()})`, "", `Session: ${event.sessionKey ?? "unknown"}`, ""];
  for (const message of messages) lines.push(`**${message.role}:** ${String(message.text).trim()}`, "");
  // Written whole under a temporary name, then linked into place: a reader (the memory index,
  // a person) never sees a half-written note, and an existing note is never replaced.
  const temp = path.join(dir, `.session-memory-${process.pid}-${Date.now()}.tmp`);
  await fs.writeFile(temp, lines.join("\n"), { flag: "wx" });
  try {
    for (let n = 1; ; n++) {
      const file = path.join(dir, n === 1 ? `${stamp}.md` : `${stamp}-${n}.md`);
      try {
        await fs.link(temp, file);
        event.messages.push(`saved ${messages.length} messages to memory/${path.basename(file)}`);
        return;
      } catch (err) {
        if (err.code !== "EEXIST") throw err;
      }
    }
  } finally {
    await fs.rm(temp, { force: true });
  }
}

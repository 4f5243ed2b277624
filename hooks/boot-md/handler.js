import fs from "node:fs/promises";
import path from "node:path";

/** The instruction around BOOT.md: follow it, tell people through the message tool, reply NO_REPLY. */
function bootPrompt(checklist) {
  return [
    "The gateway has just started. Work through the start-up checklist in BOOT.md below, doing exactly what it says.",
    "",
    "BOOT.md:",
    checklist,
    "",
    "Nobody reads your reply in this session. When the checklist says to tell someone something, send it with the message tool (channel and to).",
    "When you are done, or when nothing needs doing, reply with only NO_REPLY.",
  ].join("\n");
}

/** One agent turn per agent whose workspace has a non-empty BOOT.md. */
export default async function bootMd(event) {
  const agents = Array.isArray(event.context.agents) ? event.context.agents : [];
  for (const agent of agents) {
    let text;
    try {
      text = (await fs.readFile(path.join(agent.workspaceDir, "BOOT.md"), "utf8")).trim();
    } catch (err) {
      if (err && err.code === "ENOENT") continue;
      throw err;
    }
    if (text === "") continue;
    event.agentTurns.push({ agentId: agent.agentId, message: bootPrompt(text) });
  }
}

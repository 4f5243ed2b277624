import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../infra/logger.js";
import { signalGroup } from "../stdio/agent-process.js";

/**
 * Ends an agent process group a crashed gateway left running. The pid is only trusted when it
 * still leads its own process group and its command line names the agent's command, so a
 * recycled pid of an unrelated process is left alone.
 */
export function endOrphanAgent(pid: number, command: string | undefined, logger: Logger): boolean {
  let stat: string;
  let cmdline: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return false;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const processGroup = Number(fields[2]);
  const name = command ? path.basename(command) : undefined;
  if (processGroup !== pid || !name || !cmdline.split("\0").some((arg) => path.basename(arg) === name)) return false;
  signalGroup(pid, "SIGKILL");
  logger.warn({ pid, command: name }, "ended an ACP agent process left running by the previous gateway");
  return true;
}

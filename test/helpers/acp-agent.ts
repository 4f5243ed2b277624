import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { resolveAcpSettings, type AcpSettings } from "../../src/acp/config.js";
import { defaultConfig } from "../../src/config/index.js";

/** The scripted ACP agent (a real child process on the ACP SDK). */
export const FAKE_ACP_AGENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fakes/acp-agent/fake-acp-agent.mjs");

/** An `acp.agents` entry that starts the fake agent with these flags. */
export function fakeAgentCommand(...flags: string[]) {
  return { command: process.execPath, args: [FAKE_ACP_AGENT, ...flags] };
}

/** ACP settings with the fake agent configured as each given id. */
export function fakeAcpSettings(agents: Record<string, string[]>, acpx: Record<string, unknown> = {}, acp: Record<string, unknown> = {}): AcpSettings {
  const config = defaultConfig();
  config.acp = { enabled: true, agents: Object.fromEntries(Object.entries(agents).map(([id, flags]) => [id, fakeAgentCommand(...flags)])), ...acp };
  config.plugins = { entries: { acpx: { config: acpx } } };
  return resolveAcpSettings(config);
}

/** A pino logger that keeps what was logged at warn and above, for assertions. */
export function recordingLogger() {
  const records: { level: number; msg: string; [key: string]: unknown }[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { logger, warnings: () => records.filter((r) => r.level >= 40), records };
}

/** Pids of live processes (zombies included) whose command line has this exact argument. */
export function processesWithArgument(argument: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.includes(argument)) pids.push(Number(entry));
      else if (args.length <= 1 && fs.readFileSync(`/proc/${entry}/stat`, "utf8").includes(") Z ")) {
        // A zombie's command line is empty: count it when its parent is us and its name is node.
        if (fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(" ")[3] === String(process.pid)) pids.push(Number(entry));
      }
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

/** The process exists and is not a zombie (an orphan killed under a PID 1 that does not reap stays one). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

import type { SessionsSpawnArgs, SessionToolCaller } from "../../agents/tools/index.js";
import type { SpawnAccepted, SpawnRefusal, SubagentService } from "../../agents/subagents/index.js";
import type { AcpSessionManager } from "../control-plane/manager.js";
import type { AcpSessionRecord } from "../control-plane/session-records.js";

export interface AcpCommandDeps {
  manager: AcpSessionManager;
  subagents: SubagentService;
  /** The sub-agent caller a chat session acts as (its agent, workspace, owner flag). */
  callerFor: (sessionKey: string) => SessionToolCaller;
}

export const ACP_COMMAND_HELP = [
  "/acp spawn <agent> [--mode oneshot|persistent] [--cwd <dir>] [--label <one-word-name>] <task> — run a task on an external coding agent; its result comes back here",
  "/acp cancel <target> — stop its current turn",
  "/acp steer <target> <message> — cancel its turn and give it new instructions",
  "/acp close <target> — end the session and its process",
  "/acp status [target] — state, agent, working directory",
  "/acp sessions — the ACP sessions started from this chat",
  "/acp doctor — check each configured agent",
  "/acp help — this list",
  "A target is a session key, its id, its label or #n from /acp sessions.",
].join("\n");

/**
 * `/acp …` typed in a chat, for the session it was typed in. Spawns go through the sub-agent
 * service (the same limits and announcement as `sessions_spawn` with `runtime: "acp"`); the rest
 * act on the ACP control plane. Always answers with text; bad input gets the reason and the fix.
 */
export async function runAcpCommand(sessionKey: string, argsText: string, deps: AcpCommandDeps): Promise<string> {
  const text = argsText.trim();
  const [action = "", ...rest] = text.split(/\s+/);
  const afterAction = text.slice(action.length).trim();
  switch (action.toLowerCase()) {
    case "spawn":
      return spawn(sessionKey, afterAction, deps);
    case "cancel": {
      const record = resolveTarget(sessionKey, rest[0], deps.manager);
      if (typeof record === "string") return record;
      return (await deps.manager.cancel(record.sessionKey, "cancelled with /acp cancel"))
        ? `⏹ Cancelled the turn of ${describe(record)}.`
        : `${describe(record)} has no turn running.`;
    }
    case "steer": {
      const record = resolveTarget(sessionKey, rest[0], deps.manager);
      if (typeof record === "string") return record;
      const message = afterAction.slice((rest[0] ?? "").length).trim();
      if (!message) return "Say what it should do instead: /acp steer <target> <message>.";
      const child = deps.subagents.registry.forChild(record.sessionKey);
      if (!child) return `${describe(record)} was not started from a chat or a spawn, so it has no one to report to; steer it from where it was started.`;
      const outcome = await deps.subagents.steer(child, message, sessionKey);
      return outcome.ok
        ? `↪ Steered ${describe(record)}${outcome.restarted ? " (its turn was cancelled first)" : ""}.`
        : `⚠️ ${outcome.refusal.message} ${outcome.refusal.suggestion}`;
    }
    case "close": {
      const record = resolveTarget(sessionKey, rest[0], deps.manager);
      if (typeof record === "string") return record;
      const child = deps.subagents.registry.forChild(record.sessionKey);
      if (child && !child.endedAt) deps.subagents.kill(child);
      else await deps.manager.close(record.sessionKey, "closed with /acp close");
      return `✅ Closed ${describe(record)}.`;
    }
    case "status": {
      const sessions = mine(sessionKey, deps.manager);
      if (!rest[0]) {
        return [
          `ACP: ${deps.manager.activeProcesses} agent process(es) running, ${deps.manager.queuedStarts} waiting for a slot.`,
          `This chat: ${sessions.length} session(s).`,
        ].join("\n");
      }
      const record = resolveTarget(sessionKey, rest[0], deps.manager);
      if (typeof record === "string") return record;
      const status = await deps.manager.status(record.sessionKey);
      return [
        `${describe(record)}: ${record.state}`,
        `Agent: ${record.agent} · mode ${record.mode} · turns ${record.turns}`,
        `Working directory: ${record.cwd}`,
        `Session: ${record.sessionKey}${record.backendSessionId ? ` (agent session ${record.backendSessionId})` : ""}`,
        ...(status?.runtime ? [`Process: ${status.runtime}`] : []),
        ...(record.lastError ? [`Last error: ${record.lastError}`] : []),
      ].join("\n");
    }
    case "sessions": {
      const sessions = mine(sessionKey, deps.manager);
      if (sessions.length === 0) return "No ACP sessions were started from this chat.";
      return sessions.map((r, i) => `#${i + 1} ${describe(r)} — ${r.agent}, ${r.state}, ${r.mode}`).join("\n");
    }
    case "doctor": {
      const report = await deps.manager.doctor();
      if (report.agents.length === 0) return "No ACP agents are configured (acp.agents).";
      return report.agents.map((a) => `${a.ok ? "✅" : "❌"} ${a.agent}: ${a.message}`).join("\n");
    }
    case "":
    case "help":
      return ACP_COMMAND_HELP;
    default:
      return `Unknown /acp action "${action}".\n${ACP_COMMAND_HELP}`;
  }
}

async function spawn(sessionKey: string, argsText: string, deps: AcpCommandDeps): Promise<string> {
  const tokens = argsText.split(/\s+/).filter(Boolean);
  const agentId = tokens.shift();
  if (!agentId || agentId.startsWith("--")) return "Name the agent: /acp spawn <agent> <task> (see /acp doctor for the configured ones).";
  const args: SessionsSpawnArgs = { runtime: "acp", agentId, task: "" };
  while (tokens[0]?.startsWith("--")) {
    const flag = tokens.shift()!;
    const value = tokens.shift();
    if (!value) return `${flag} needs a value.`;
    if (/^["'“‘]/.test(value)) return quotedValueRefusal(flag, value, tokens);
    if (flag === "--mode") {
      if (value !== "oneshot" && value !== "persistent") return `--mode is oneshot or persistent, not "${value}".`;
      args.mode = value === "persistent" ? "session" : "run";
    } else if (flag === "--cwd") args.cwd = value;
    else if (flag === "--label") args.label = value;
    else return `Unknown option ${flag}. Options: --mode, --cwd, --label.`;
  }
  args.task = tokens.join(" ");
  if (!args.task) return "Give it a task: /acp spawn <agent> [options] <task>.";
  const outcome: SpawnAccepted | SpawnRefusal = await deps.subagents.spawn(deps.callerFor(sessionKey), args);
  if ("code" in outcome) return `⚠️ ${outcome.message} ${outcome.suggestion}`;
  return `🚀 Started ${agentId} (${outcome.childSessionKey}). Its result will come back here.`;
}

/**
 * Option values are single words and quotes are not read, so a quoted value cannot be told apart
 * from the task that follows it: refuse it and say how to write it as one word.
 */
function quotedValueRefusal(flag: string, value: string, rest: readonly string[]): string {
  const closing = rest.findIndex((t) => /["'”’]$/.test(t));
  const words = [value, ...(closing >= 0 ? rest.slice(0, closing + 1) : [])].join(" ").replace(/^["'“‘]|["'”’]$/g, "");
  const fix = flag === "--label" ? `Write the label as one word, e.g. --label ${words.split(/\s+/).join("-")}.` : `Give a path without spaces (a symlink to it works).`;
  return `${flag} takes one word and quotes are not read, so "${words}" cannot be told apart from the task. ${fix}`;
}

function mine(sessionKey: string, manager: AcpSessionManager): AcpSessionRecord[] {
  return manager
    .list()
    .filter((r) => r.requesterSessionKey === sessionKey)
    .sort((a, b) => a.createdAt - b.createdAt);
}

function resolveTarget(sessionKey: string, target: string | undefined, manager: AcpSessionManager): AcpSessionRecord | string {
  if (!target) return "Name the session: its key, id, label or #n from /acp sessions.";
  const sessions = mine(sessionKey, manager);
  const index = /^#(\d+)$/.exec(target);
  const found = index
    ? sessions[Number(index[1]) - 1]
    : (manager.records.get(target) ?? sessions.find((r) => r.sessionKey.endsWith(`:${target}`)) ?? sessions.find((r) => r.label === target));
  return found ?? `No ACP session "${target}" here. See /acp sessions.`;
}

function describe(record: AcpSessionRecord): string {
  return record.label ? `"${record.label}"` : record.sessionKey;
}

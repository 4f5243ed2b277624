import type { ProcessSession } from "../../agents/tools/process-session.js";
import type { CronConversations } from "../ports.js";

const TAIL_CHARS = 400;
const COMMAND_CHARS = 120;

/** What the heartbeat needs to be woken: its event queue and a beat now. */
export interface HeartbeatWake {
  queueEvent(agentId: string, text: string, options: { now: boolean }): unknown;
  wakeNow(agentId: string): void;
}

/**
 * A background command an agent's main session started has ended: the ending is queued as a
 * system event and the agent's heartbeat runs now, also when it does not beat on a schedule
 * (docs/automation.md#heartbeat). Not news: a command the agent killed itself, one started with
 * `tools.exec.notifyOnExit: false`, and a success without output unless
 * `tools.exec.notifyOnExitEmptySuccess` was on when it started.
 */
export function wakeHeartbeatOnExit(heartbeat: HeartbeatWake, conversations: Pick<CronConversations, "resolveSessionKey">, defaultAgentId: () => string) {
  return (session: ProcessSession): void => {
    if (session.status === "killed" || !session.completion.notifyOnExit) return;
    const quietSuccess = session.status === "exited" && session.exitCode === 0 && session.output.text().trim() === "";
    if (quietSuccess && !session.completion.notifyOnExitEmptySuccess) return;
    const agentId = session.agentId ?? defaultAgentId();
    if (session.sessionKey !== conversations.resolveSessionKey(undefined, agentId).sessionKey) return;
    heartbeat.queueEvent(agentId, describeExit(session), { now: true });
    heartbeat.wakeNow(agentId);
  };
}

function describeExit(session: ProcessSession): string {
  const command = session.command.length > COMMAND_CHARS ? `${session.command.slice(0, COMMAND_CHARS)}…` : session.command;
  const how =
    session.status === "timed_out"
      ? "timed out"
      : session.status === "failed"
        ? "failed to run"
        : session.exitSignal
          ? `ended by ${session.exitSignal}`
          : `exited with code ${session.exitCode}`;
  const output = session.output.text().trim();
  const tail = output.length > TAIL_CHARS ? `…${output.slice(-TAIL_CHARS)}` : output;
  return `Background command ${session.id} (${command}) ${how}.${tail ? ` Output ends: ${tail}` : ""}`;
}

import type { ProcessSession } from "../../agents/tools/process-session.js";
import type { CronConversations } from "../ports.js";

const TAIL_CHARS = 400;
const COMMAND_CHARS = 120;

/** What the heartbeat needs to be woken: whether the agent beats, its event queue, a beat now. */
export interface HeartbeatWake {
  beats(agentId: string): boolean;
  queueEvent(agentId: string, text: string, options: { now: boolean }): unknown;
  wakeNow(agentId: string): void;
}

/**
 * A background command an agent's main session started has ended: when that agent beats, the
 * ending is queued as a system event and the heartbeat runs now instead of at its next slot
 * (docs/automation.md#heartbeat). A command the agent killed itself is not news.
 */
export function wakeHeartbeatOnExit(heartbeat: HeartbeatWake, conversations: Pick<CronConversations, "resolveSessionKey">, defaultAgentId: () => string) {
  return (session: ProcessSession): void => {
    if (session.status === "killed") return;
    const agentId = session.agentId ?? defaultAgentId();
    if (!heartbeat.beats(agentId)) return;
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

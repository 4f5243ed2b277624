import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import type { HeartbeatRunner } from "../../cron/heartbeat/heartbeat-runner.js";
import { invalidRequest } from "../protocol/errors.js";
import { assertKnownAgent } from "../known-agent.js";
import type { MethodRegistry } from "./registry.js";

/** `last-heartbeat`, `set-heartbeats` and `wake` (docs/automation.md#heartbeat). */
export function registerHeartbeatMethods(registry: MethodRegistry, heartbeat: HeartbeatRunner, conversations: Pick<ConversationPort, "resolveSessionKey" | "submit">): void {
  registry.register({
    name: "last-heartbeat",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => heartbeat.lastEvent() ?? null,
  });

  registry.register({
    name: "set-heartbeats",
    scope: "operator.admin",
    params: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
    handler: (params) => {
      heartbeat.setEnabled(params.enabled);
      return { ok: true, enabled: params.enabled };
    },
  });

  registry.register({
    name: "wake",
    scope: "operator.write",
    // Extra fields are allowed: clients send more than the gateway reads.
    params: Type.Object({
      mode: Type.Union([Type.Literal("now"), Type.Literal("next-heartbeat")]),
      text: Type.String({ minLength: 1, maxLength: 20_000 }),
      sessionKey: Type.Optional(Type.String({ minLength: 1 })),
      agentId: Type.Optional(Type.String({ minLength: 1 })),
    }),
    handler: async (params, { runtime }) => {
      if (params.text.trim() === "") throw invalidRequest("text must not be empty");
      assertKnownAgent(runtime.config(), params.agentId);
      let resolved: { sessionKey: string; agentId: string };
      try {
        resolved = conversations.resolveSessionKey(params.sessionKey, params.agentId);
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
      // A key such as `agent:<id>:…` names its agent too.
      assertKnownAgent(runtime.config(), resolved.agentId);
      return wake(heartbeat, conversations, resolved, params.text.trim(), params.mode);
    },
  });
}

/**
 * A system event for an agent: queued for its next heartbeat, on disk before the answer (and,
 * with `now`, that heartbeat runs at once). An agent without a heartbeat gets the text as a turn
 * of its own in the session. A `key` already used (a webhook's Idempotency-Key, also from before
 * a restart) queues and runs nothing: the answer says `duplicate`.
 */
export async function wake(
  heartbeat: HeartbeatRunner,
  conversations: Pick<ConversationPort, "submit">,
  target: { sessionKey: string; agentId: string },
  text: string,
  mode: "now" | "next-heartbeat",
  key?: string,
): Promise<{ ok: true; queued: "next-heartbeat" | "now"; runId?: string; duplicate?: true }> {
  if (heartbeat.beats(target.agentId)) {
    if (!heartbeat.queueEvent(target.agentId, text, { now: mode === "now", ...(key !== undefined ? { key } : {}) })) return { ok: true, queued: mode, duplicate: true };
    if (mode === "now") heartbeat.wakeNow(target.agentId);
    return { ok: true, queued: mode };
  }
  const outcome = await conversations.submit({
    message: `[System event] ${text}`,
    sessionKey: target.sessionKey,
    agentId: target.agentId,
    method: "agent",
    internal: { mergeable: true },
    provenance: { kind: "internal_system", sourceTool: "wake" },
    ...(key !== undefined ? { idempotencyKey: key } : {}),
  });
  if (outcome.kind === "duplicate") return { ok: true, queued: "now", runId: outcome.runId, duplicate: true };
  return { ok: true, queued: "now", ...(outcome.kind === "accepted" ? { runId: outcome.run.runId } : {}) };
}

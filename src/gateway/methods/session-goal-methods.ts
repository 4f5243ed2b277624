import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { checkGoalNote, checkGoalObjective, GoalRefusal, GoalTransitionError, type GoalOperation, type GoalStore } from "../../sessions/goal/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";
import { resumeGoalWithTurn } from "./goal-resume-turn.js";
import { ownedSession } from "./owned-session.js";

const NonEmpty = Type.String({ minLength: 1, maxLength: 512 });

/** OpenClaw's goal operation identity: the session (optionally its agent and generation), the goal, and the retry key. */
const Identity = {
  sessionKey: NonEmpty,
  agentId: Type.Optional(NonEmpty),
  sessionId: Type.Optional(NonEmpty),
  goalId: NonEmpty,
  operationId: Type.String({ minLength: 1, maxLength: 128 }),
  issuedAtMs: Type.Integer({ minimum: 0 }),
};

const UpdateParams = Type.Union([
  Type.Object({ ...Identity, action: Type.Literal("edit"), objective: Type.String({ minLength: 1, maxLength: 16_000 }) }, { additionalProperties: false }),
  Type.Object(
    {
      ...Identity,
      action: Type.Union([Type.Literal("pause"), Type.Literal("resume"), Type.Literal("complete"), Type.Literal("block")]),
      note: Type.Optional(Type.String({ maxLength: 2_000 })),
    },
    { additionalProperties: false },
  ),
]);

/**
 * `sessions.goal.update` / `sessions.goal.clear` (docs/protocol.md): an operator client's goal
 * controls, each aimed at the goal it showed (`goalId`) and kept by `operationId` so a retry is
 * answered rather than repeated (GoalStore.operate). A resume also starts the goal's continuation
 * turn (resumeGoalWithTurn). Clients read the goal on session rows and
 * hear its changes as `sessions.changed` (reason `goal`).
 */
export function registerSessionGoalMethods(registry: MethodRegistry, conversations: ConversationPort, goals: GoalStore): void {
  const sessionOf = (runtime: GatewayRuntime, sessionKey: string, agentId: string | undefined) => ownedSession(runtime.config(), conversations, sessionKey, agentId);
  const operate = async (runtime: GatewayRuntime, params: { sessionKey: string; agentId?: string }, op: GoalOperation) => {
    const target = sessionOf(runtime, params.sessionKey, params.agentId);
    try {
      if (op.action === "resume") return await resumeGoalWithTurn({ conversations, goals, runtime }, target, op);
      return await goals.operate(target, op);
    } catch (err) {
      if (err instanceof GoalRefusal || err instanceof GoalTransitionError) throw invalidRequest(`goal not changed: ${err.message}`);
      throw err;
    }
  };
  const identity = (p: { operationId: string; issuedAtMs: number; goalId: string; sessionId?: string }) => ({
    operationId: p.operationId,
    issuedAtMs: p.issuedAtMs,
    goalId: p.goalId,
    ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
  });

  registry.register({
    name: "sessions.goal.update",
    scope: "operator.write",
    params: UpdateParams,
    handler: async (params, { runtime }) => {
      if (params.action === "edit") {
        const objective = checkGoalObjective(params.objective);
        if (!objective.ok) throw invalidRequest(`goal not changed: ${objective.rule}`);
        return operate(runtime, params, { ...identity(params), action: "edit", objective: objective.text });
      }
      const note = checkGoalNote(params.note);
      if (!note.ok) throw invalidRequest(`goal not changed: ${note.rule}`);
      return operate(runtime, params, { ...identity(params), action: params.action, ...(note.text ? { note: note.text } : {}) });
    },
  });

  registry.register({
    name: "sessions.goal.clear",
    scope: "operator.write",
    params: Type.Object(Identity, { additionalProperties: false }),
    handler: (params, { runtime }) => operate(runtime, params, { ...identity(params), action: "clear" }),
  });
}

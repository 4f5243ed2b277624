import type { ConversationPort } from "../../agents/conversation-port.js";
import { goalResumePrompt } from "../../conversations/commands/goal-command.js";
import type { GoalOperation, GoalOperationResult, GoalStore } from "../../sessions/goal/index.js";
import { isAcpSessionKey } from "../../sessions/keys/index.js";
import { resolveSendPolicy, SEND_BLOCKED } from "../../sessions/send-policy.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";

type ResumeOperation = Extract<GoalOperation, { action: "resume" }>;

/** The continuation's input is the agent's to read, not a person's message: chat surfaces do not show it. */
const CONTINUATION_PROVENANCE = { kind: "internal_system", method: "sessions.goal.update", sourceTool: "session_goal_resume" } as const;

/**
 * A client's goal resume (`sessions.goal.update` `resume`): the goal becomes active and, as with
 * `/goal resume` in a chat, the session's agent gets the continue instruction as its next turn.
 * The turn's run id is the operation id and the receipt says `started` with it, so a retry of
 * the operation answers that receipt (`replayed: true`) and starts nothing. A session with a run
 * not yet ended (under way or waiting) is refused (UNAVAILABLE, retryable, reason
 * `goal-session-busy`) and its goal left as it was; so is one whose send policy denies input or
 * whose turns run on an ACP agent. The bookkeeping a turn does after its reply does not count as
 * busy: the continuation waits for it on the session's lane. The goal and its receipt are on
 * disk before the turn's message is accepted.
 */
export async function resumeGoalWithTurn(
  deps: { conversations: ConversationPort; goals: GoalStore; runtime: GatewayRuntime },
  target: { sessionKey: string; agentId: string },
  op: ResumeOperation,
): Promise<GoalOperationResult> {
  const { conversations, goals, runtime } = deps;
  const { sessionKey, agentId } = target;
  const admit = () => {
    if (isAcpSessionKey(sessionKey)) throw invalidRequest("goal not changed: resume starts a turn, and this ACP session's turns run on its external agent");
    if (resolveSendPolicy(runtime.config(), { sessionKey, entry: runtime.sessions().peek(sessionKey) }) === "deny") throw invalidRequest(`goal not changed: ${SEND_BLOCKED}`);
    if (conversations.runs.activeFor(sessionKey).length > 0) {
      throw new GatewayError({
        code: ErrorCodes.UNAVAILABLE,
        message: "goal not changed: this session still has active or queued work; wait for it to finish, then retry the resume",
        retryable: true,
        details: { reason: "goal-session-busy" },
      });
    }
    if (conversations.hasAccepted(op.operationId)) throw invalidRequest("goal not changed: this operationId already names a chat run; use a new operationId");
  };
  const result = await goals.operate(target, op, { runId: op.operationId, admit });
  if (result.replayed) return result;
  const outcome = await conversations.submit({
    message: goalResumePrompt(op.note ?? ""),
    idempotencyKey: op.operationId,
    sessionKey,
    agentId,
    method: "chat.send",
    provenance: CONTINUATION_PROVENANCE,
    // Its own turn, never steered into or merged with a person's messages.
    internal: {},
    transcriptFields: { display: false },
  });
  if (outcome.kind === "rejected") {
    runtime.logger.warn({ sessionKey, runId: op.operationId, notice: outcome.notice }, "goal resumed but its continuation turn was refused");
    throw new GatewayError({ code: ErrorCodes.UNAVAILABLE, message: `goal resumed, but its continuation turn was refused: ${outcome.notice}; send /goal resume in the chat` });
  }
  return result;
}

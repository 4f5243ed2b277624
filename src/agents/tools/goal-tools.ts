import { Type } from "@sinclair/typebox";
import { checkGoalNote, checkGoalObjective, checkGoalTokenBudget, GoalRefusal, GoalTransitionError, MODEL_GOAL_STATUSES } from "../../sessions/goal/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, GoalHost, ToolContext, ToolResult } from "../types.js";

const GetGoalParameters = Type.Object({});

const CreateGoalParameters = Type.Object({
  objective: Type.String({ description: "The concrete objective, only when the user or system instructions explicitly ask for a goal." }),
  token_budget: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: "A positive token budget, only when one is explicitly asked for; otherwise omit it or pass null." }),
  ),
});

const UpdateGoalParameters = Type.Object({
  status: Type.Union([Type.Literal("complete"), Type.Literal("blocked")], { description: "complete or blocked." }),
  note: Type.Optional(Type.String({ description: "A short status note." })),
});

/** The JSON answer the goal tools give: what happened and, where there is one, the goal. */
const answer = (body: Record<string, unknown>): ToolResult => toolText(JSON.stringify(body), body);

/**
 * The goal host and the running session, or the tool error that says there is none. The session
 * and agent always come from the running turn, never from the model.
 */
function sessionGoals(ctx: ToolContext): { host: GoalHost; sessionKey: string } | ToolResult {
  const host = ctx.services.goals;
  if (!host || !ctx.sessionKey || !host.keeps(ctx.sessionKey)) return toolError(TOOL_ERRORS.goalUnavailable("Goals need a session kept by the gateway."));
  return { host, sessionKey: ctx.sessionKey };
}

/** A refusal from the store as the tool error the model can act on; anything else is rethrown. */
function refused(err: unknown): ToolResult {
  if (err instanceof GoalTransitionError) return toolError(TOOL_ERRORS.goalNotChanged(err.message));
  if (err instanceof GoalRefusal) return toolError(TOOL_ERRORS.goalUnavailable(err.message));
  throw err;
}

/** get_goal: the session's goal with its objective, status, tokens used and budget. */
export function createGetGoalTool(): AgentTool<typeof GetGoalParameters> {
  return {
    name: "get_goal",
    description: "Get the current session goal: its full objective, status, token usage and optional token budget.",
    parameters: GetGoalParameters,
    async execute(_args, ctx) {
      const session = sessionGoals(ctx);
      if (!("host" in session)) return session;
      const goal = session.host.read(session.sessionKey);
      return answer(goal ? { status: "found", goal } : { status: "missing" });
    },
  };
}

/** create_goal: starts the session's goal (refused while it has one: only the operator clears goals). */
export function createCreateGoalTool(): AgentTool<typeof CreateGoalParameters> {
  return {
    name: "create_goal",
    description:
      "Create the session goal only when the user or system instructions explicitly ask for one. Give token_budget only when a budget is explicitly asked " +
      "for (otherwise omit it or pass null). Fails while the session has a goal: the user must clear it first.",
    parameters: CreateGoalParameters,
    async execute(args, ctx) {
      const session = sessionGoals(ctx);
      if (!("host" in session)) return session;
      const objective = checkGoalObjective(args.objective);
      if (!objective.ok) return toolError(TOOL_ERRORS.goalInvalid(objective.rule));
      const budget = checkGoalTokenBudget(args.token_budget);
      if (!budget.ok) return toolError(TOOL_ERRORS.goalInvalid(budget.rule));
      try {
        const goal = await session.host.create(
          { sessionKey: session.sessionKey, agentId: ctx.agentId },
          { objective: objective.text, ...(budget.budget !== undefined ? { tokenBudget: budget.budget } : {}) },
        );
        return answer({ status: "created", goal });
      } catch (err) {
        return refused(err);
      }
    },
  };
}

/**
 * update_goal: the model may only report the goal complete or blocked. Pausing, resuming,
 * editing and clearing stay with the operator, so the agent cannot quietly move its target.
 */
export function createUpdateGoalTool(): AgentTool<typeof UpdateGoalParameters> {
  return {
    name: "update_goal",
    description:
      "Mark the session goal complete only when the whole objective is verified and no required work remains; mark it blocked only when the same blocker " +
      "has come back for at least three goal turns in a row and no progress is possible without the user or an outside change (after a resume, count " +
      "again from there). Difficulty, unfinished work or a nearly spent budget never justify either. This sends the user nothing: give your reply afterwards.",
    parameters: UpdateGoalParameters,
    async execute(args, ctx) {
      const session = sessionGoals(ctx);
      if (!("host" in session)) return session;
      const status = MODEL_GOAL_STATUSES.find((s) => s === args.status);
      if (!status) return toolError(TOOL_ERRORS.goalInvalid(`status must be one of ${MODEL_GOAL_STATUSES.join(", ")}`));
      const note = checkGoalNote(args.note);
      if (!note.ok) return toolError(TOOL_ERRORS.goalInvalid(note.rule));
      try {
        const goal = await session.host.setStatus({ sessionKey: session.sessionKey, agentId: ctx.agentId }, status, note.text);
        return answer({ status: "updated", goal, nextAction: "The goal status was updated but the user was sent nothing: continue and give the reply they asked for." });
      } catch (err) {
        return refused(err);
      }
    },
  };
}

/** The three goal tools, in OpenClaw's order. */
export function createGoalTools(): AgentTool[] {
  return [createGetGoalTool(), createCreateGoalTool(), createUpdateGoalTool()];
}

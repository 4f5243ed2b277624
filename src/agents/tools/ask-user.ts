import { AskUserParameters, normalizeAskUser } from "../questions/ask-user-params.js";
import type { Question, QuestionAnswers, QuestionOutcome } from "../questions/question-broker.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import { AskUserRefusal, type AgentTool, type ToolResult } from "../types.js";

const DESCRIPTION = [
  "Ask the user 1-3 structured questions and wait for the answers; `multiSelect` lets them pick several options, `timeoutSeconds` bounds the wait.",
  "Use it only when you are blocked on a decision that is genuinely theirs and cannot be settled from the request, the code, or a sensible default; never to ask whether to proceed or to confirm your plan.",
  "Ask one question per call unless the answers must come together: one single-choice question gets buttons in the chat.",
  "Put every choice in `options`, the recommended one first with ` (Recommended)` after its label; do not add an Other option (free text is always allowed).",
  "If the result is no_answer, go on with your best judgment.",
].join(" ");

/**
 * `ask_user`: the run waits for the user's answer to structured questions, asked in the session's
 * chat (buttons for one single-choice question) and in the operator clients (`question.*`). Only a
 * session's own runs get it (not sub-agents, cron or webhook runs): see mayAskUser.
 */
export function createAskUserTool(): AgentTool<typeof AskUserParameters> {
  return {
    name: "ask_user",
    description: DESCRIPTION,
    parameters: AskUserParameters,
    async execute(args, ctx, signal) {
      const host = ctx.services.questions;
      if (!host || !ctx.sessionKey) return toolError(TOOL_ERRORS.askUserUnavailable());
      const normalized = normalizeAskUser(args);
      if (!normalized.ok) return toolError(TOOL_ERRORS.askUserInvalid(normalized.problem));
      let outcome: QuestionOutcome;
      try {
        outcome = await host.ask(
          { questions: normalized.questions, agentId: ctx.agentId, sessionKey: ctx.sessionKey, ...(ctx.runId ? { runId: ctx.runId } : {}), timeoutMs: normalized.timeoutMs },
          signal,
        );
      } catch (err) {
        if (err instanceof AskUserRefusal) return toolError(TOOL_ERRORS.askUserRefused(err.message));
        throw err;
      }
      return outcome.status === "answered" ? answeredResult(normalized.questions, outcome.answers) : noAnswerResult(outcome.status);
    },
  };
}

/** One line per question (`header: answers`), then the answers as OpenClaw's tool returns them. */
function answeredResult(questions: readonly Question[], answers: QuestionAnswers): ToolResult {
  const details = { status: "answered", answers: { answers } };
  const lines = questions.map((q) => `${q.header}: ${answers[q.questionId]?.length ? answers[q.questionId]!.join(", ") : "(no answer)"}`);
  return toolText(`${lines.join("\n")}\n\n${JSON.stringify(details, null, 2)}`, details);
}

function noAnswerResult(status: "cancelled" | "expired"): ToolResult {
  const details = { status: "no_answer" };
  const why = status === "cancelled" ? "The question was cancelled" : "No answer arrived in time";
  return toolText(`${why}; go on with your best judgment.\n\n${JSON.stringify(details, null, 2)}`, details);
}

import type { CreateElicitationRequest, CreateElicitationResponse, ElicitationContentValue } from "@agentclientprotocol/sdk";
import type { Question, QuestionAnswers, QuestionOutcome } from "../../agents/questions/question-broker.js";
import { compileForm, readRound } from "./elicitation-form.js";

/**
 * Asks a person the questions of one round of an agent's form (the gateway's questions), until
 * `signal` withdraws them; `unavailable` when nobody can be asked.
 */
export interface InputAsker {
  ask(request: { sessionKey: string; agent: string; questions: Question[]; signal: AbortSignal }): Promise<QuestionOutcome | "unavailable">;
}

/** Asks of a round whose answers do not fit its schema, before the form is declined. */
const ATTEMPTS_PER_ROUND = 3;

/**
 * Answers an agent's `elicitation/create` by asking a person: its form's fields as questions,
 * round by round (see compileForm), each answer checked against the schema and the round asked
 * again, saying what did not fit. `accept` with every value once all rounds are answered;
 * `cancel` when a question expires or is cancelled, the agent withdraws the request, or nobody
 * can be asked; `decline`, with the reason, for a request that cannot be shown here or answers
 * that keep not fitting, and without one when the person declines a step (a URL, an empty form).
 */
export async function answerElicitation(
  request: CreateElicitationRequest,
  who: { sessionKey: string; agent: string; signal: AbortSignal },
  asker: InputAsker,
): Promise<CreateElicitationResponse> {
  const form = compileForm(request);
  if ("unsupported" in form) return { action: "decline", _meta: { message: `OpenClaw cannot show this request: ${form.unsupported}.` } };
  if ("confirm" in form) {
    const { question, accept, content } = form.confirm;
    const outcome = await ask(asker, who, [question]);
    if ("action" in outcome) return outcome;
    if (outcome.answers[question.questionId]?.[0] !== accept) return { action: "decline" };
    return content ? { action: "accept", content } : { action: "accept" };
  }
  const content: Record<string, ElicitationContentValue> = {};
  for (const round of form.rounds) {
    let problem: string | undefined;
    for (let attempt = 0; ; attempt++) {
      if (attempt === ATTEMPTS_PER_ROUND) return { action: "decline", _meta: { message: `the answers did not fit the form (${problem})` } };
      const questions = round.map((field, i) => (i === 0 && problem ? { ...field.question, question: `⚠️ ${problem}\n${field.question.question}` } : field.question));
      const outcome = await ask(asker, who, questions);
      if ("action" in outcome) return outcome;
      const read = readRound(round, outcome.answers);
      if ("content" in read) {
        Object.assign(content, read.content);
        break;
      }
      problem = read.problem;
    }
  }
  return { action: "accept", content };
}

/** One round asked: its answers, or the `cancel` the agent gets when there are none. */
async function ask(
  asker: InputAsker,
  who: { sessionKey: string; agent: string; signal: AbortSignal },
  questions: Question[],
): Promise<{ answers: QuestionAnswers } | CreateElicitationResponse> {
  if (who.signal.aborted) return { action: "cancel", _meta: { message: "the request was withdrawn" } };
  const outcome = await asker.ask({ ...who, questions });
  if (outcome === "unavailable") return { action: "cancel", _meta: { message: "nobody could be asked (no operator connected and no chat)" } };
  if (outcome.status !== "answered") return { action: "cancel", _meta: { message: outcome.status === "expired" ? "nobody answered in time" : "the question was cancelled" } };
  return { answers: outcome.answers };
}

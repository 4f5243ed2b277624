import { Type } from "@sinclair/typebox";
import type { QuestionBroker } from "../../agents/questions/question-broker.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const NonEmpty = Type.String({ minLength: 1 });
const QuestionId = Type.String({ pattern: "^[a-z][a-z0-9_]*$" });
const Answers = Type.Object({ answers: Type.Record(QuestionId, Type.Array(Type.String())) }, { additionalProperties: false });
const MAX_TIMEOUT_MS = 60 * 60_000;

const QuestionInput = Type.Object(
  {
    questionId: QuestionId,
    header: Type.String({ maxLength: 12 }),
    question: NonEmpty,
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    options: Type.Array(Type.Object({ label: NonEmpty, description: Type.Optional(Type.String()) }, { additionalProperties: false }), { maxItems: 4 }),
    multiSelect: Type.Optional(Type.Boolean()),
    isOther: Type.Optional(Type.Boolean()),
    isSecret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

function notFound(id: string): GatewayError {
  return new GatewayError({ code: ErrorCodes.INVALID_REQUEST, message: `question not found or no longer pending: ${id}` });
}

/**
 * `question.*`: structured questions to the operator (up to three per request, each with up to
 * four options), answered once by whoever answers first; `question.requested` / `question.resolved`
 * go to connections with `operator.questions` (docs/protocol.md). `plugin.approval.list` and
 * `plugin.approval.resolve` answer for approvals raised by plugins: this gateway loads none, so
 * the list is empty and no id resolves.
 */
export function registerQuestionMethods(registry: MethodRegistry, broker: QuestionBroker): void {
  registry.register({
    name: "question.request",
    scope: "operator.questions",
    params: Type.Object(
      {
        id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        questions: Type.Array(QuestionInput, { minItems: 1, maxItems: 3 }),
        agentId: Type.Optional(NonEmpty),
        sessionKey: Type.Optional(NonEmpty),
        runId: Type.Optional(NonEmpty),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS })),
      },
      { additionalProperties: false },
    ),
    handler: (params) => {
      const { timeoutMs, ...input } = params;
      try {
        const record = broker.request(input, timeoutMs);
        return { id: record.id, expiresAtMs: record.expiresAtMs };
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
    },
  });

  registry.register({
    name: "question.waitAnswer",
    scope: "operator.questions",
    params: Type.Object(
      { id: NonEmpty, timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS })), includeResolutionId: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    handler: async (params, { signal }) => {
      const waiting = broker.wait(params.id);
      if (!waiting) throw notFound(params.id);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        waiting,
        new Promise<{ status: "pending" }>((resolve) => {
          timer = setTimeout(() => resolve({ status: "pending" }), params.timeoutMs ?? 30_000);
          signal.addEventListener("abort", () => resolve({ status: "pending" }), { once: true });
        }),
      ]);
      clearTimeout(timer);
      return outcome.status === "answered" ? { status: "answered", answers: { answers: outcome.answers } } : { status: outcome.status };
    },
  });

  registry.register({
    name: "question.resolve",
    scope: "operator.questions",
    params: Type.Union([
      Type.Object(
        { id: NonEmpty, answers: Answers, resolvedBy: Type.Optional(NonEmpty), resolutionId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) },
        { additionalProperties: false },
      ),
      Type.Object({ id: NonEmpty, cancel: Type.Literal(true), resolvedBy: Type.Optional(NonEmpty) }, { additionalProperties: false }),
    ]),
    handler: (params, { caller }) => {
      const by = params.resolvedBy ?? caller.clientId;
      if ("cancel" in params) {
        if (!broker.cancel(params.id, by)) throw notFound(params.id);
        return { status: "cancelled" };
      }
      const problem = broker.answer(params.id, params.answers.answers, by);
      if (problem) throw broker.get(params.id)?.status === "pending" ? invalidRequest(problem) : notFound(params.id);
      return { status: "answered", answers: params.answers };
    },
  });

  registry.register({
    name: "question.get",
    scope: "operator.questions",
    params: Type.Object({ id: NonEmpty }, { additionalProperties: false }),
    handler: (params) => {
      const question = broker.get(params.id);
      if (!question) throw notFound(params.id);
      return { question };
    },
  });

  registry.register({
    name: "question.list",
    scope: "operator.questions",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => ({ questions: broker.list() }),
  });

  registry.register({
    name: "plugin.approval.list",
    scope: "operator.approvals",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => [],
  });

  // Approvals OpenClaw's system agent raises (`openclaw approvals pending` lists them): this gateway has no system agent.
  registry.register({
    name: "openclaw.approval.list",
    scope: "operator.approvals",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => [],
  });

  registry.register({
    name: "plugin.approval.resolve",
    scope: "operator.approvals",
    params: Type.Object({ id: NonEmpty, decision: NonEmpty }, { additionalProperties: false }),
    handler: (params) => {
      throw new GatewayError({ code: ErrorCodes.APPROVAL_NOT_FOUND, message: `plugin approval not found: ${params.id} (this gateway runs no plugins that ask for approval)` });
    },
  });
}

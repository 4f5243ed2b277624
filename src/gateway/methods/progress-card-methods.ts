import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { checkProgressCardInput, PROGRESS_CARD_LIMITS, ProgressCardRefusal, type ProgressCard, type ProgressCardStore } from "../../sessions/progress-card/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";
import { ownedSession } from "./owned-session.js";

const NonEmpty = Type.String({ minLength: 1, maxLength: 512 });
const Step = Type.Object(
  { step: Type.String({ minLength: 1 }), status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]) },
  { additionalProperties: false },
);

/**
 * `progressCard.get` / `progressCard.put` (docs/protocol.md): a session's progress card, read and
 * replaced by clients under the same rules as the progress_card tool; every stored write is a
 * `progressCard.changed` event (the store's onChanged). `progressCard.refresh` (asking the agent
 * to reconcile its card) is answered as not supported.
 */
export function registerProgressCardMethods(registry: MethodRegistry, conversations: ConversationPort, cards: ProgressCardStore): void {
  const sessionOf = (runtime: GatewayRuntime, sessionKey: string, agentId: string | undefined) => ownedSession(runtime.config(), conversations, sessionKey, agentId);
  // The card as the protocol carries it: with the session's canonical key.
  const shown = (card: ProgressCard | null, sessionKey: string) => (card ? { ...card, sessionKey } : null);

  registry.register({
    name: "progressCard.get",
    scope: "operator.read",
    params: Type.Object({ sessionKey: NonEmpty, agentId: Type.Optional(NonEmpty) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const { sessionKey } = sessionOf(runtime, params.sessionKey, params.agentId);
      return { card: shown(cards.read(sessionKey), sessionKey) };
    },
  });

  registry.register({
    name: "progressCard.put",
    scope: "operator.write",
    params: Type.Object(
      {
        sessionKey: NonEmpty,
        agentId: Type.Optional(NonEmpty),
        markdown: Type.Optional(Type.String()),
        plan: Type.Optional(Type.Array(Step, { maxItems: PROGRESS_CARD_LIMITS.steps })),
        expectedRevision: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params, { runtime }) => {
      const checked = checkProgressCardInput(params);
      if (!checked.ok) throw invalidRequest(`progress card not changed: ${checked.rule}`);
      const clearing = checked.content.markdown === undefined && checked.content.steps === undefined;
      if (params.expectedRevision !== undefined && !clearing) throw invalidRequest("expectedRevision is only valid when clearing a card");
      const { sessionKey, agentId } = sessionOf(runtime, params.sessionKey, params.agentId);
      // A conditional clear (OpenClaw's): only the card at that revision, and only once every step is completed.
      if (params.expectedRevision !== undefined) {
        const current = cards.read(sessionKey);
        const finished = current?.steps?.length ? current.steps.every((s) => s.status === "completed") : false;
        if (!current || current.revision !== params.expectedRevision || !finished) return { card: shown(current, sessionKey) };
      }
      try {
        return { card: shown(await cards.write(sessionKey, agentId, checked.content), sessionKey) };
      } catch (err) {
        if (err instanceof ProgressCardRefusal) throw invalidRequest(err.message);
        throw err;
      }
    },
  });

  registry.register({
    name: "progressCard.refresh",
    scope: "operator.write",
    params: Type.Object({ sessionKey: NonEmpty, agentId: Type.Optional(NonEmpty), idempotencyKey: NonEmpty }, { additionalProperties: false }),
    handler: () => {
      throw invalidRequest(
        "not supported: progressCard.refresh (this gateway does not ask the agent to reconcile its card; send the agent a message asking it to update the card)",
      );
    },
  });
}

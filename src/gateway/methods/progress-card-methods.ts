import { randomUUID } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { LRUCache } from "lru-cache";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { checkProgressCardInput, PROGRESS_CARD_LIMITS, ProgressCardRefusal, type ProgressCard, type ProgressCardStore } from "../../sessions/progress-card/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";
import { ownedSession } from "./owned-session.js";

/** Idempotency keys of refreshes remembered (in memory: a refresh does not outlive a restart). */
const REFRESH_KEYS_KEPT = 1_024;

const NonEmpty = Type.String({ minLength: 1, maxLength: 512 });
const Step = Type.Object(
  { step: Type.String({ minLength: 1 }), status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]) },
  { additionalProperties: false },
);

/**
 * `progressCard.get` / `progressCard.put` (docs/protocol.md): a session's progress card, read and
 * replaced by clients under the same rules as the progress_card tool; every stored write is a
 * `progressCard.changed` event (the store's onChanged). `progressCard.refresh` asks the agent to
 * reconcile the card (hidden: at a running turn's next model call, or in a status-only turn) and
 * answers at once with the refresh's run id and the card's revision at the time (the baseline a
 * client waits to see exceeded).
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

  // Refreshes by idempotency key: a retry gets the first answer (its run and revision baseline) and starts nothing.
  const refreshes = new LRUCache<string, { sessionKey: string; runId: string; revision: number }>({ max: REFRESH_KEYS_KEPT });
  registry.register({
    name: "progressCard.refresh",
    scope: "operator.write",
    params: Type.Object({ sessionKey: NonEmpty, agentId: Type.Optional(NonEmpty), idempotencyKey: NonEmpty }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const { sessionKey, agentId } = sessionOf(runtime, params.sessionKey, params.agentId);
      const earlier = refreshes.get(params.idempotencyKey);
      if (earlier) {
        if (earlier.sessionKey !== sessionKey) throw invalidRequest(`idempotencyKey ${params.idempotencyKey} was already used to refresh another session's card; send a new key`);
        return { runId: earlier.runId, status: "accepted", revision: earlier.revision };
      }
      const card = cards.read(sessionKey);
      if (!card) throw invalidRequest(`no progress card to refresh: ${sessionKey} has none (the agent publishes one with progress_card during multi-step work)`);
      const runId = conversations.refreshProgressCard(sessionKey, agentId, `progress-refresh:${randomUUID()}`);
      refreshes.set(params.idempotencyKey, { sessionKey, runId, revision: card.revision });
      return { runId, status: "accepted", revision: card.revision };
    },
  });
}

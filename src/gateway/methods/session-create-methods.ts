import { Type } from "@sinclair/typebox";
import { randomUUID } from "node:crypto";
import type { ConversationPort, ForkOutcome } from "../../agents/conversation-port.js";
import { sessionControlsPatch } from "../../agents/session-controls.js";
import type { SessionEntry } from "../../sessions/store/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";
import { assertLabelFree, parseLabel } from "./session-label.js";
import { assertKnownAgent } from "../known-agent.js";
import { sessionRow } from "./session-row.js";

const NonEmpty = Type.String({ minLength: 1, maxLength: 512 });
const Label = Type.String({ minLength: 1, maxLength: 512 });

/**
 * `sessions.create` (a new session, or the existing one under that key) and `sessions.resolve`
 * (key, id or label → the canonical key). See docs/protocol.md, "Methods".
 */
export function registerSessionCreateMethods(registry: MethodRegistry, conversations: ConversationPort, onChanged: (key: string, reason: string) => void): void {
  registry.register({
    name: "sessions.create",
    scope: "operator.write",
    params: Type.Object(
      {
        key: Type.Optional(NonEmpty),
        idempotencyKey: Type.Optional(NonEmpty),
        agentId: Type.Optional(NonEmpty),
        label: Type.Optional(Label),
        displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        model: Type.Optional(NonEmpty),
        thinkingLevel: Type.Optional(NonEmpty),
        parentSessionKey: Type.Optional(NonEmpty),
        // The new session starts with a copy of the parent's conversation (under ~100K tokens).
        fork: Type.Optional(Type.Boolean()),
        // OpenClaw's TUI sends both with `/new`: internal hooks hear `command:new` for the parent.
        succeedsParent: Type.Optional(Type.Boolean()),
        emitCommandHooks: Type.Optional(Type.Boolean()),
        message: Type.Optional(Type.String({ maxLength: 1_000_000 })),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params, { runtime }) => {
      if (params.succeedsParent !== undefined && !params.parentSessionKey) throw invalidRequest("succeedsParent needs parentSessionKey");
      if (params.succeedsParent !== undefined && params.emitCommandHooks !== true) throw invalidRequest("succeedsParent needs emitCommandHooks: true");
      if (params.fork === true && !params.parentSessionKey) throw invalidRequest("fork needs parentSessionKey: the session whose conversation the new one starts with");
      const config = runtime.config();
      assertKnownAgent(config, params.agentId);
      const label = params.label === undefined ? undefined : parseLabel(params.label);
      const store = runtime.sessions();
      const { sessionKey, agentId } = conversations.resolveSessionKey(params.key ?? `session-${params.idempotencyKey ?? randomUUID()}`, params.agentId?.toLowerCase());
      const parent = params.parentSessionKey ? conversations.resolveSessionKey(params.parentSessionKey, params.agentId?.toLowerCase()).sessionKey : undefined;
      if (parent && !store.get(parent)) throw invalidRequest(`parent session not found: ${params.parentSessionKey}`);
      const existing = store.get(sessionKey);
      let forked: ForkOutcome | undefined;
      if (!existing) {
        const controls = sessionControlsPatch({ model: params.model, thinkingLevel: params.thinkingLevel }, agentId, config, process.env);
        if (!controls.ok) throw invalidRequest(controls.message);
        if (label) assertLabelFree(store.list(agentId), label, sessionKey);
        if (parent && params.emitCommandHooks === true) {
          // As OpenClaw: hooks read the parent's conversation, so it may not be mid-turn.
          if (conversations.isActive(parent)) throw unavailable(`parent session ${parent} is still running a turn; try again when it has ended`);
          conversations.announceNew(parent, "sessions.create");
        }
        store.ensure(sessionKey, { agentId, ...(label ? { label } : {}), ...(params.displayName ? { displayName: params.displayName } : {}) });
        if (Object.keys(controls.patch).length > 0) store.patch(sessionKey, controls.patch as never);
        if (parent && params.fork === true) forked = conversations.fork(parent, sessionKey);
        onChanged(sessionKey, "create");
      }
      const entry = store.get(sessionKey)!;
      const started = params.message?.trim()
        ? await conversations.submit({ message: params.message, idempotencyKey: params.idempotencyKey, sessionKey, agentId, method: "chat.send" })
        : undefined;
      return {
        ok: true,
        key: sessionKey,
        sessionId: entry.sessionId,
        entry: sessionRow(entry, conversations, config),
        ...(forked ? { fork: forked } : {}),
        ...(started?.kind === "accepted" ? { runStarted: true, runId: started.run.runId } : started ? { runStarted: false } : {}),
      };
    },
  });

  registry.register({
    name: "sessions.resolve",
    scope: "operator.read",
    params: Type.Object(
      {
        key: Type.Optional(NonEmpty),
        sessionId: Type.Optional(NonEmpty),
        label: Type.Optional(Label),
        agentId: Type.Optional(NonEmpty),
        spawnedBy: Type.Optional(NonEmpty),
        includeGlobal: Type.Optional(Type.Boolean()),
        includeUnknown: Type.Optional(Type.Boolean()),
        allowMissing: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const selectors = [params.key, params.sessionId, params.label].filter((v) => v !== undefined).length;
      if (selectors !== 1) throw invalidRequest("sessions.resolve needs exactly one of key, sessionId or label");
      // Labels are stored trimmed, so the one looked up is read the same way.
      const label = params.label === undefined ? undefined : parseLabel(params.label);
      if (params.label !== undefined && !label) throw invalidRequest("label is empty: name the label to resolve");
      const store = runtime.sessions();
      const agentId = params.agentId?.toLowerCase();
      let matches: SessionEntry[];
      if (params.key !== undefined) {
        const entry = store.get(conversations.resolveSessionKey(params.key, agentId).sessionKey);
        matches = entry ? [entry] : [];
      } else {
        const rows = store.list(agentId).filter((e) => !params.spawnedBy || e.spawnedBy === params.spawnedBy);
        matches = params.sessionId !== undefined ? rows.filter((e) => e.sessionId === params.sessionId) : rows.filter((e) => e.label === label);
      }
      const candidate = (e: SessionEntry) => ({ key: e.sessionKey, agentId: e.agentId, ...(e.displayName ? { displayName: e.displayName } : {}) });
      if (matches.length === 1) return { ok: true, ...candidate(matches[0]!) };
      if (matches.length > 1) return { ok: false, candidates: matches.slice(0, 10).map(candidate) };
      if (params.allowMissing) return { ok: false };
      throw invalidRequest(
        `no session matches ${params.key !== undefined ? `key ${params.key}` : params.sessionId !== undefined ? `sessionId ${params.sessionId}` : `label "${label}"`}`,
      );
    },
  });
}

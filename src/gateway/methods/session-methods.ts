import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { isReasoningLevel } from "../../agents/reasoning-visibility.js";
import { parseElevatedLevel } from "../../agents/sandbox/elevated-level.js";
import { invalidRequest } from "../protocol/errors.js";
import { sessionControlsPatch } from "../../agents/session-controls.js";
import type { MethodRegistry } from "./registry.js";
import { assertLabelFree, parseLabel } from "./session-label.js";
import type { SessionEvents } from "../session-change-events.js";
import type { GatewayRuntime } from "../runtime.js";
import { sessionModelRef, sessionRow, splitModelRef } from "./session-row.js";
import { resolveContextWindow } from "../../models/index.js";
import { SessionTitleFields } from "./session-title-fields.js";
import { configuredSessionAgents, isConfiguredAgentSession } from "./configured-agent-sessions.js";
import { parseResponseUsage } from "../../conversations/response-usage.js";

const Key = Type.String({ minLength: 1, maxLength: 512 });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/** `sessions.*` (see docs/protocol.md, "Methods") and `sessions.subscribe` for `sessions.changed`. */
export function registerSessionMethods(registry: MethodRegistry, conversations: ConversationPort, events: SessionEvents): void {
  const { subscribers } = events;
  const titles = new SessionTitleFields();
  const resolve = (key: string, agentId?: string) => conversations.resolveSessionKey(key, agentId).sessionKey;
  const mustGet = (runtime: GatewayRuntime, key: string, agentId?: string) => {
    const entry = runtime.sessions().get(resolve(key, agentId));
    if (!entry) throw invalidRequest(`session not found: ${key}`);
    return entry;
  };

  registry.register({
    name: "sessions.list",
    scope: "operator.read",
    params: Type.Object(
      {
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
        // Sessions are never archived here (a deleted one's transcript is only kept as a file):
        // `true` lists none, `false` and "all" list every session.
        archived: Type.Optional(Type.Union([Type.Boolean(), Type.Literal("all")])),
        activeMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
        includeGlobal: Type.Optional(Type.Boolean()),
        includeUnknown: Type.Optional(Type.Boolean()),
        includeDerivedTitles: Type.Optional(Type.Boolean()),
        includeLastMessage: Type.Optional(Type.Boolean()),
        label: Type.Optional(Type.String()),
        spawnedBy: Type.Optional(Type.String()),
        agentId: Type.Optional(Type.String()),
        search: Type.Optional(Type.String()),
        configuredAgentsOnly: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const config = runtime.config();
      let entries = params.archived === true ? [] : runtime.sessions().list(params.agentId?.toLowerCase());
      const now = Date.now();
      if (params.configuredAgentsOnly && !params.agentId) {
        const configured = configuredSessionAgents(config);
        entries = entries.filter((e) => isConfiguredAgentSession(e, configured));
      }
      if (params.activeMinutes) entries = entries.filter((e) => now - (e.updatedAt ?? 0) <= params.activeMinutes! * 60_000);
      if (params.label) entries = entries.filter((e) => e.label === params.label);
      if (params.spawnedBy) entries = entries.filter((e) => e.spawnedBy === params.spawnedBy);
      if (params.search) {
        const needle = params.search.toLowerCase();
        entries = entries.filter((e) => [e.sessionKey, e.label, e.displayName].some((v) => typeof v === "string" && v.toLowerCase().includes(needle)));
      }
      const limit = params.limit ?? 100;
      const offset = params.offset ?? 0;
      const page = entries.slice(offset, offset + limit);
      const hasMore = entries.length > offset + limit;
      const want = { derivedTitle: params.includeDerivedTitles === true, lastMessage: params.includeLastMessage === true };
      const defaultModel = splitModelRef(sessionModelRef({ agentId: params.agentId?.toLowerCase() ?? "main" }, config), config);
      return {
        ts: now,
        path: `${runtime.stateDir}/agents`,
        count: page.length,
        totalCount: entries.length,
        limitApplied: limit,
        offset,
        hasMore,
        ...(hasMore ? { nextOffset: offset + limit } : {}),
        defaults: {
          modelProvider: defaultModel?.provider ?? null,
          model: defaultModel?.id ?? null,
          contextTokens: defaultModel ? resolveContextWindow(config, defaultModel.provider, defaultModel.id).tokens : null,
        },
        sessions: page.map((e) => titles.addTo(sessionRow(e, conversations, config), e, want)),
      };
    },
  });

  registry.register({
    name: "sessions.describe",
    scope: "operator.read",
    params: Type.Object(
      { key: Key, agentId: Type.Optional(Type.String()), includeDerivedTitles: Type.Optional(Type.Boolean()), includeLastMessage: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      // An unknown session is `{session: null}`, not an error: clients describe a key before its first message.
      const entry = runtime.sessions().get(resolve(params.key, params.agentId));
      if (!entry) return { session: null };
      const messages = conversations.history(entry.sessionKey);
      return {
        session: {
          ...sessionRow(entry, conversations, runtime.config()),
          ...titles.fieldsOf(entry, { derivedTitle: params.includeDerivedTitles === true, lastMessage: params.includeLastMessage === true }),
          sessionFile: entry.sessionFile,
          sessionStartedAt: entry.sessionStartedAt,
          messageCount: messages.length,
          entry,
        },
      };
    },
  });

  registry.register({
    name: "sessions.patch",
    scope: "operator.write",
    params: Type.Object(
      {
        key: Key,
        agentId: Type.Optional(Type.String()),
        label: Nullable(Type.String({ maxLength: 512 })),
        thinkingLevel: Nullable(Type.String()),
        model: Nullable(Type.String()),
        verboseLevel: Nullable(Type.String()),
        reasoningLevel: Nullable(Type.String()),
        // Counts only for senders tools.elevated admits (docs/security.md, "Elevated").
        elevatedLevel: Nullable(Type.String()),
        sendPolicy: Type.Optional(Type.Union([Type.Literal("allow"), Type.Literal("deny"), Type.Null()])),
        // `off`, `tokens`, `full` (and OpenClaw's aliases: `on` is `tokens`); OpenClaw's TUI sends it for `/usage`.
        responseUsage: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const responseUsage = typeof params.responseUsage === "string" ? parseResponseUsage(params.responseUsage) : params.responseUsage;
      if (responseUsage === undefined && params.responseUsage !== undefined) throw invalidRequest('invalid responseUsage (use "off"|"tokens"|"full")');
      const entry = mustGet(runtime, params.key, params.agentId);
      // The model and levels take effect on the session's next turn; bad values change nothing.
      const controls = sessionControlsPatch(
        { model: params.model, thinkingLevel: params.thinkingLevel, verboseLevel: params.verboseLevel },
        entry.agentId,
        runtime.config(),
        process.env,
      );
      if (!controls.ok) throw invalidRequest(controls.message);
      const patch: Record<string, unknown> = { ...controls.patch };
      // null, "" or blanks clear the label.
      const label = typeof params.label === "string" ? parseLabel(params.label) : undefined;
      if (label) assertLabelFree(runtime.sessions().list(entry.agentId), label, entry.sessionKey);
      if (params.label !== undefined) patch.label = label ?? null;
      if (params.reasoningLevel !== undefined) patch.reasoningLevel = params.reasoningLevel === null ? null : reasoningLevel(params.reasoningLevel);
      if (params.elevatedLevel !== undefined) patch.elevatedLevel = params.elevatedLevel === null ? null : elevatedLevelOf(params.elevatedLevel);
      if (params.sendPolicy !== undefined) patch.sendPolicy = params.sendPolicy;
      if (responseUsage !== undefined) patch.responseUsage = responseUsage;
      const updated = runtime.sessions().patch(entry.sessionKey, patch as never);
      events.changed(entry.sessionKey, "patch");
      return { ok: true, path: updated.sessionFile, key: entry.sessionKey, entry: updated };
    },
  });

  registry.register({
    name: "sessions.reset",
    scope: "operator.admin",
    params: Type.Object(
      { key: Key, agentId: Type.Optional(Type.String()), reason: Type.Optional(Type.Union([Type.Literal("new"), Type.Literal("reset")])) },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const entry = mustGet(runtime, params.key, params.agentId);
      // As `/new` and `/reset`: runs stop, internal hooks hear `command:<reason>`, sessions.changed follows.
      conversations.reset({ sessionKey: entry.sessionKey, method: "sessions.reset", command: params.reason ?? "reset" });
      return { ok: true, key: entry.sessionKey, entry: mustGet(runtime, entry.sessionKey) };
    },
  });

  registry.register({
    name: "sessions.delete",
    scope: "operator.admin",
    params: Type.Object({ key: Key, agentId: Type.Optional(Type.String()), deleteTranscript: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      // The transcript is always archived, never left in place: `false` is refused, not ignored.
      if (params.deleteTranscript === false) {
        throw invalidRequest("deleteTranscript: false is not supported: a deleted session's transcript is always kept as <file>.deleted.<timestamp> (omit deleteTranscript)");
      }
      const key = resolve(params.key, params.agentId);
      const parts = key.split(":");
      if (parts.length === 3 && parts[2] === runtime.config().session.mainKey) {
        throw invalidRequest("the main session cannot be deleted (reset it instead)");
      }
      const entry = mustGet(runtime, key);
      conversations.abort(entry.sessionKey);
      const deleted = runtime.sessions().delete(entry.sessionKey);
      events.changed(entry.sessionKey, "delete");
      return { ok: true, key: entry.sessionKey, deleted };
    },
  });

  registry.register({
    name: "sessions.compact",
    scope: "operator.admin",
    params: Type.Object({ key: Key, agentId: Type.Optional(Type.String()), instructions: Type.Optional(Type.String({ maxLength: 4_000 })) }, { additionalProperties: false }),
    handler: async (params, { runtime }) => {
      const entry = mustGet(runtime, params.key, params.agentId);
      const result = await conversations.compact(entry.sessionKey, params.instructions?.trim() || undefined);
      if (!result.ok) return { ok: true, key: entry.sessionKey, compacted: false, reason: result.reason };
      return {
        ok: true,
        key: entry.sessionKey,
        compacted: true,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        summarizedMessages: result.summarizedMessages,
        compactionCount: result.compactionCount,
      };
    },
  });

  registry.register({
    name: "sessions.subscribe",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { caller }) => {
      subscribers.add(caller.connId);
      return { ok: true };
    },
  });

  registry.register({
    name: "sessions.unsubscribe",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { caller }) => {
      subscribers.delete(caller.connId);
      return { ok: true };
    },
  });
}

/** A session's `/elevated` level as OpenClaw spells it; anything else is refused with the choices. */
function elevatedLevelOf(raw: string): string {
  const level = parseElevatedLevel(raw);
  if (!level) throw invalidRequest(`invalid elevatedLevel ${JSON.stringify(raw)} (use "on", "off", "ask" or "full")`);
  return level;
}

/** A session's reasoning display as OpenClaw names it; anything else is refused with the choices. */
function reasoningLevel(raw: string): string {
  const level = raw.trim().toLowerCase();
  if (!isReasoningLevel(level)) throw invalidRequest(`invalid reasoningLevel ${JSON.stringify(raw)} (use "on", "off" or "stream")`);
  return level;
}

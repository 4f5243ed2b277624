import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { invalidRequest } from "../protocol/errors.js";
import { sessionControlsPatch } from "../../agents/session-controls.js";
import type { MethodRegistry } from "./registry.js";
import type { GatewayRuntime } from "../runtime.js";

const Key = Type.String({ minLength: 1, maxLength: 512 });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/** One session as `sessions.list` shows it (GatewaySessionRow). */
function sessionRow(entry: Record<string, any>, conversations: ConversationPort): Record<string, unknown> {
  const key: string = entry.sessionKey;
  const active = conversations.runs.activeFor(key).map((r) => r.runId);
  const rest = key.split(":").slice(2);
  const kind = rest.includes("group") || rest.includes("channel") ? "group" : rest.includes("direct") || rest[0] === "main" || rest.length === 1 ? "direct" : "unknown";
  return {
    key,
    kind,
    sessionId: entry.sessionId,
    updatedAt: entry.updatedAt ?? null,
    ...(entry.label ? { label: entry.label } : {}),
    ...(entry.displayName ? { displayName: entry.displayName } : {}),
    ...(entry.chatType ? { chatType: entry.chatType } : {}),
    ...(entry.channel ? { channel: entry.channel } : {}),
    ...(entry.origin ? { origin: entry.origin } : {}),
    ...(entry.lastChannel ? { lastChannel: entry.lastChannel, lastTo: entry.lastTo, lastAccountId: entry.lastAccountId } : {}),
    ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
    ...(entry.modelOverride ? { model: entry.modelOverride } : entry.model ? { model: entry.model } : {}),
    inputTokens: entry.inputTokens ?? 0,
    outputTokens: entry.outputTokens ?? 0,
    totalTokens: entry.totalTokens ?? 0,
    ...(entry.contextTokens !== undefined ? { contextTokens: entry.contextTokens } : {}),
    ...(entry.compactionCount ? { compactionCount: entry.compactionCount } : {}),
    ...(entry.abortedLastRun ? { abortedLastRun: true } : {}),
    ...(entry.spawnedBy ? { spawnedBy: entry.spawnedBy } : {}),
    hasActiveRun: active.length > 0,
    activeRunIds: active,
  };
}

/** `sessions.*` (see docs/protocol.md, "Methods") and `sessions.subscribe` for `sessions.changed`. */
export function registerSessionMethods(registry: MethodRegistry, conversations: ConversationPort, subscribers: Set<string>): void {
  const resolve = (key: string) => conversations.resolveSessionKey(key, undefined).sessionKey;
  const mustGet = (runtime: GatewayRuntime, key: string) => {
    const entry = runtime.sessions().get(resolve(key));
    if (!entry) throw invalidRequest(`session not found: ${key}`);
    return entry;
  };

  registry.register({
    name: "sessions.list",
    scope: "operator.read",
    params: Type.Object(
      {
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
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
      let entries = runtime.sessions().list(params.agentId?.toLowerCase()) as Record<string, any>[];
      const now = Date.now();
      if (params.activeMinutes) entries = entries.filter((e) => now - (e.updatedAt ?? 0) <= params.activeMinutes! * 60_000);
      if (params.label) entries = entries.filter((e) => e.label === params.label);
      if (params.spawnedBy) entries = entries.filter((e) => e.spawnedBy === params.spawnedBy);
      if (params.search) {
        const needle = params.search.toLowerCase();
        entries = entries.filter((e) => [e.sessionKey, e.label, e.displayName].some((v) => typeof v === "string" && v.toLowerCase().includes(needle)));
      }
      const limit = params.limit ?? 100;
      const config = runtime.config();
      return {
        ts: now,
        path: `${runtime.stateDir}/agents`,
        count: Math.min(limit, entries.length),
        totalCount: entries.length,
        limitApplied: limit,
        hasMore: entries.length > limit,
        defaults: { model: typeof config.agents.defaults.model === "string" ? config.agents.defaults.model : (config.agents.defaults.model?.primary ?? null) },
        sessions: entries.slice(0, limit).map((e) => sessionRow(e, conversations)),
      };
    },
  });

  registry.register({
    name: "sessions.describe",
    scope: "operator.read",
    params: Type.Object({ key: Key }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const entry = mustGet(runtime, params.key) as Record<string, any>;
      const messages = conversations.history(entry.sessionKey);
      return { ...sessionRow(entry, conversations), sessionFile: entry.sessionFile, sessionStartedAt: entry.sessionStartedAt, messageCount: messages.length, entry };
    },
  });

  registry.register({
    name: "sessions.patch",
    scope: "operator.write",
    params: Type.Object(
      {
        key: Key,
        label: Nullable(Type.String({ maxLength: 512 })),
        thinkingLevel: Nullable(Type.String()),
        model: Nullable(Type.String()),
        verboseLevel: Nullable(Type.String()),
        reasoningLevel: Nullable(Type.String()),
        sendPolicy: Type.Optional(Type.Union([Type.Literal("allow"), Type.Literal("deny"), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const entry = mustGet(runtime, params.key);
      // The model and levels take effect on the session's next turn; bad values change nothing.
      const controls = sessionControlsPatch({ model: params.model, thinkingLevel: params.thinkingLevel, verboseLevel: params.verboseLevel }, runtime.config(), process.env);
      if (!controls.ok) throw invalidRequest(controls.message);
      const patch: Record<string, unknown> = { ...controls.patch };
      if (params.label !== undefined) patch.label = params.label ?? undefined;
      if (params.reasoningLevel !== undefined) patch.reasoningLevel = params.reasoningLevel ?? undefined;
      if (params.sendPolicy !== undefined) patch.sendPolicy = params.sendPolicy ?? undefined;
      const updated = runtime.sessions().patch(entry.sessionKey, patch as never);
      runtime.broadcast("sessions.changed", { key: entry.sessionKey, reason: "patch" }, { filter: (c) => subscribers.has(c.connId) });
      return { ok: true, path: updated.sessionFile, key: entry.sessionKey, entry: updated };
    },
  });

  registry.register({
    name: "sessions.reset",
    scope: "operator.admin",
    params: Type.Object({ key: Key, reason: Type.Optional(Type.Union([Type.Literal("new"), Type.Literal("reset")])) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const entry = mustGet(runtime, params.key);
      conversations.abort(entry.sessionKey);
      const updated = runtime.sessions().reset(entry.sessionKey);
      runtime.broadcast("sessions.changed", { key: entry.sessionKey, reason: "reset" }, { filter: (c) => subscribers.has(c.connId) });
      return { ok: true, key: entry.sessionKey, entry: updated };
    },
  });

  registry.register({
    name: "sessions.delete",
    scope: "operator.admin",
    params: Type.Object({ key: Key, deleteTranscript: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const key = resolve(params.key);
      const parts = key.split(":");
      if (parts.length === 3 && parts[2] === runtime.config().session.mainKey) {
        throw invalidRequest("the main session cannot be deleted (reset it instead)");
      }
      const entry = mustGet(runtime, key);
      conversations.abort(entry.sessionKey);
      const deleted = runtime.sessions().delete(entry.sessionKey);
      runtime.broadcast("sessions.changed", { key: entry.sessionKey, reason: "delete" }, { filter: (c) => subscribers.has(c.connId) });
      return { ok: true, key: entry.sessionKey, deleted };
    },
  });

  registry.register({
    name: "sessions.compact",
    scope: "operator.admin",
    params: Type.Object({ key: Key, instructions: Type.Optional(Type.String({ maxLength: 4_000 })) }, { additionalProperties: false }),
    handler: async (params, { runtime }) => {
      const entry = mustGet(runtime, params.key);
      const result = await conversations.compact(entry.sessionKey, params.instructions?.trim() || undefined);
      if (!result.ok) return { ok: true, key: entry.sessionKey, compacted: false, reason: result.reason };
      return { ok: true, key: entry.sessionKey, compacted: true, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, summarizedMessages: result.summarizedMessages, compactionCount: result.compactionCount };
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

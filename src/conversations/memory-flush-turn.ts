import { randomUUID } from "node:crypto";
import { runEmbeddedTurn } from "../agents/embedded-turn.js";
import { MEMORY_FLUSH_SYSTEM_PROMPT, memoryFlushPrompt } from "../agents/compaction/memory-flush.js";
import type { ToolServices } from "../agents/types.js";
import type { HiddenTurnInput } from "./hidden-turn-input.js";

export interface MemoryFlushTurnInput extends HiddenTurnInput {
  senderIsOwner: boolean;
  timeoutMs: number;
}

/**
 * The silent turn before compaction: the agent gets the conversation and is asked to append
 * durable notes to today's memory file. Nothing of it reaches anyone: no events, no transcript
 * lines, and no messaging, session or question tools (its only way out is the workspace). It runs on
 * `memoryFlush.model` when set, strictly (no fallback), else as the session's turns do. The session row
 * records the cycle it ran in, so it runs at most once between two compactions.
 */
export async function runMemoryFlushTurn(input: MemoryFlushTurnInput): Promise<void> {
  const entry = input.store.peek(input.sessionKey);
  if (!entry) return;
  const cycle = entry.compactionCount ?? 0;
  const services: ToolServices = { ...input.services, channelMessenger: undefined, sessionTools: undefined, questions: undefined };
  const flushModel = input.config.agents.defaults.compaction?.memoryFlush?.model;
  const result = await runEmbeddedTurn({
    config: input.config,
    stateDir: input.stateDir,
    env: process.env,
    message: memoryFlushPrompt(new Date()),
    agentId: input.agentId,
    runId: `memory-flush:${randomUUID()}`,
    senderIsOwner: input.senderIsOwner,
    sessionKey: input.sessionKey,
    ...input.overrides,
    // `memoryFlush.model` keeps this housekeeping on its own model, without the session's fallbacks.
    ...(flushModel ? { sessionModel: flushModel, modelOverride: undefined, modelFallbacks: undefined } : {}),
    extraSystemPrompt: [input.overrides?.extraSystemPrompt, MEMORY_FLUSH_SYSTEM_PROMPT].filter(Boolean).join("\n\n"),
    timeoutSeconds: Math.ceil(input.timeoutMs / 1000),
    services,
    streamModel: input.streamModel,
    failover: input.failover,
    history: input.history,
  }).catch((err: Error) => ({ stopReason: "error" as const, error: { kind: "unknown", message: err.message }, messages: [] }));
  input.store.patch(input.sessionKey, { memoryFlushAt: Date.now(), memoryFlushCompactionCount: cycle });
  if (result.stopReason !== "stop" && result.stopReason !== "length") {
    input.logger.warn({ sessionKey: input.sessionKey, err: result.error?.message }, "memory flush before compaction failed; compaction goes ahead");
  } else {
    input.logger.info({ sessionKey: input.sessionKey, toolCalls: result.messages.filter((m) => m.role === "toolResult").length }, "memory flushed before compaction");
  }
}

import { resolveAgentConfig } from "../../agents/agent-config.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { RunningAccount } from "../dispatch/running-account.js";
import type { BlockStreamingSettings } from "./block-reply-stream.js";

const DEFAULT_MIN_CHARS = 800;
const DEFAULT_MAX_CHARS = 1_200;
const DEFAULT_IDLE_MS = 1_000;
const NATURAL_DELAY = { minMs: 800, maxMs: 2_500 };

interface ChannelStreaming {
  mode?: string;
  chunkMode?: string;
  block?: { enabled?: boolean; coalesce?: CoalesceConfig };
}

interface CoalesceConfig {
  minChars?: number;
  maxChars?: number;
  idleMs?: number;
}

/**
 * Whether a message's reply streams in blocks here, and how, as OpenClaw resolves it: the
 * account's (else the channel's) `streaming.block.enabled` decides; unset, a platform that
 * follows the agent's default (Telegram) streams when `agents.defaults.blockStreamingDefault`
 * is `on` and no draft (`streaming.mode: partial`, `block` or `progress`) is configured there. Blocks are cut
 * by `blockStreamingChunk` (at most the channel's `textChunkLimit`), merged by the channel's
 * `streaming.block.coalesce` (else `blockStreamingCoalesce`, else the platform's defaults), and
 * paced by the agent's `humanDelay`.
 */
export function blockStreamingFor(config: OpenClawConfig, running: RunningAccount, agentId: string): BlockStreamingSettings | undefined {
  const defaults = config.agents.defaults;
  const streaming = running.config.streaming as ChannelStreaming | undefined;
  const traits = running.blockStreaming ?? {};
  const previewConfigured = (streaming?.mode === "partial" || streaming?.mode === "block" || streaming?.mode === "progress") && !!running.account.editMessage;
  const enabled = streaming?.block?.enabled ?? (!!traits.followsAgentDefault && !previewConfigured && defaults.blockStreamingDefault === "on");
  if (!enabled) return undefined;

  const textLimit = running.limits.textChunkLimit;
  const chunk = defaults.blockStreamingChunk ?? {};
  const maxChars = Math.min(chunk.maxChars ?? DEFAULT_MAX_CHARS, textLimit);
  const minChars = Math.min(chunk.minChars ?? DEFAULT_MIN_CHARS, maxChars);
  const breakPreference = chunk.breakPreference ?? "paragraph";

  const coalesce: CoalesceConfig = streaming?.block?.coalesce ?? defaults.blockStreamingCoalesce ?? {};
  const coalesceMax = Math.min(coalesce.maxChars ?? maxChars, maxChars);
  const humanDelay = humanDelayFor(config, agentId);
  return {
    breakAt: defaults.blockStreamingBreak === "message_end" ? "message_end" : "text_end",
    chunking: { minChars, maxChars, breakPreference, flushOnParagraph: streaming?.chunkMode === "newline" },
    coalescing: {
      minChars: Math.min(coalesce.minChars ?? traits.coalesce?.minChars ?? minChars, coalesceMax),
      maxChars: coalesceMax,
      idleMs: coalesce.idleMs ?? traits.coalesce?.idleMs ?? DEFAULT_IDLE_MS,
      joiner: breakPreference === "sentence" ? " " : breakPreference === "newline" ? "\n" : "\n\n",
    },
    ...(humanDelay ? { humanDelay } : {}),
  };
}

/** The agent's `humanDelay` (else `agents.defaults.humanDelay`) as a pause range; undefined when off. */
function humanDelayFor(config: OpenClawConfig, agentId: string): { minMs: number; maxMs: number } | undefined {
  const delay = resolveAgentConfig(config, agentId)?.humanDelay ?? config.agents.defaults.humanDelay;
  switch (delay?.mode) {
    case "natural":
      return NATURAL_DELAY;
    case "custom": {
      // Both set, the config check keeps maxMs ≥ minMs; one left unset must not fall below the other.
      const minMs = delay.minMs ?? NATURAL_DELAY.minMs;
      return { minMs, maxMs: Math.max(minMs, delay.maxMs ?? NATURAL_DELAY.maxMs) };
    }
    default:
      return undefined;
  }
}

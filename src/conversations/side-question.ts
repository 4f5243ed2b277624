import type { OpenClawConfig } from "../config/index.js";
import { agentModelRef, resolveAgentConfig } from "../agents/agent-config.js";
import type { SideAnswer } from "../agents/conversation-port.js";
import { modelText } from "../agents/model-text.js";
import type { StreamModelFn, TranscriptMessage } from "../agents/types.js";
import { buildCandidateChain, type ModelFailover } from "../models/failover/index.js";
import { resolveModel } from "../models/index.js";
import { serializeConversation } from "../sessions/compaction/index.js";
import { CHARS_PER_TOKEN } from "../sessions/history/estimate-tokens.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import type { SessionStore } from "../sessions/store/index.js";

/** A side answer is short; the model's own limit when that is lower. */
const ANSWER_MAX_TOKENS = 2_048;
const TIMEOUT_MS = 120_000;

const SIDE_SYSTEM_PROMPT =
  "You answer a side question about an ongoing conversation between a user and an assistant (you). " +
  "The conversation so far is given as background. Answer only the side question, briefly and directly. " +
  "Do not continue, resume or change the main task, do not promise to do anything, and do not call tools.";

export interface SideQuestionDeps {
  store: SessionStore;
  config: () => OpenClawConfig;
  streamModel: StreamModelFn;
  failover: ModelFailover;
  history: (sessionKey: string) => readonly TranscriptMessage[];
}

/**
 * `/btw`: one model call, on the session's model (its keys and cooldowns as for a turn), with the
 * conversation so far as background text (its most recent part when it is long) and the question.
 * Nothing is written to the session: not the question, not the answer. A run under way is left alone.
 */
export async function askSideQuestion(deps: SideQuestionDeps, sessionKey: string, question: string, signal?: AbortSignal): Promise<SideAnswer> {
  const config = deps.config();
  const entry = deps.store.peek(sessionKey);
  const agentId = parseSessionKey(sessionKey).agentId;
  const ref = entry?.modelOverride ?? entry?.model ?? agentModelRef(config, resolveAgentConfig(config, agentId));
  const resolved = resolveModel(ref, config, process.env, { requireKey: false });
  if (!resolved.ok) return { ok: false, reason: resolved.message };
  const model = resolved.model;
  const maxTokens = Math.min(ANSWER_MAX_TOKENS, model.maxTokens);
  const chain = buildCandidateChain({ requested: model.ref, strict: true, fallbacks: [] }, config);
  const keyed = deps.failover.beginTurn({ chain, config, env: process.env, agentId, sessionKey, stream: deps.streamModel });
  const background = recentPart(serializeConversation(deps.history(sessionKey)), backgroundChars(model.contextWindow, maxTokens, question));
  const prompt = `${background ? `<conversation>\n${background}\n</conversation>\n\n` : "(The conversation has no messages yet.)\n\n"}Side question: ${question}`;
  const request = { model, systemPrompt: SIDE_SYSTEM_PROMPT, messages: [{ role: "user" as const, content: prompt, timestamp: Date.now() }], tools: [], maxTokens };
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  const answer = await modelText(keyed.stream, request, signal ? AbortSignal.any([signal, deadline]) : deadline);
  if (!answer.ok) return { ok: false, reason: deadline.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : answer.error };
  return answer.text ? { ok: true, text: answer.text, model: model.ref } : { ok: false, reason: `${model.ref} returned an empty answer` };
}

/** Characters of conversation the request may carry: the window minus the answer, the instructions, the question and a margin. */
function backgroundChars(contextWindow: number, maxTokens: number, question: string): number {
  const tokens = contextWindow - maxTokens - Math.ceil((SIDE_SYSTEM_PROMPT.length + question.length) / CHARS_PER_TOKEN) - 1_000;
  return Math.max(2_000, tokens * CHARS_PER_TOKEN);
}

/** The end of a long conversation, cut at a line: what the side question most likely asks about. */
function recentPart(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const tail = text.slice(-maxChars);
  const newline = tail.indexOf("\n");
  return `[…earlier messages left out…]\n${newline >= 0 ? tail.slice(newline + 1) : tail}`;
}

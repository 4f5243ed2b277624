import { agentModelRef, defaultAgentId, resolveAgentConfig } from "../agents/agent-config.js";
import type { StreamModelFn } from "../agents/types.js";
import type { OpenClawConfig } from "../config/index.js";
import { buildCandidateChain, type ModelFailover } from "../models/failover/index.js";
import { resolveModel } from "../models/index.js";
import type { JudgeAnswer, JudgeCall } from "../traces/index.js";

const TIMEOUT_MS = 120_000;

export interface ReviewJudgeCallDeps {
  config: () => OpenClawConfig;
  streamModel: StreamModelFn;
  failover: ModelFailover;
}

/**
 * The review queue's judge (docs/traces.md#llm-judge): one model call, on the configured model or
 * the default agent's, with that agent's keys and cooldowns as its turns have them. It is no run:
 * no session, no transcript, no trace.
 */
export async function callReviewJudge(deps: ReviewJudgeCallDeps, call: JudgeCall, signal: AbortSignal): Promise<JudgeAnswer> {
  const config = deps.config();
  const agentId = defaultAgentId(config);
  const ref = call.model ?? agentModelRef(config, resolveAgentConfig(config, agentId));
  const resolved = resolveModel(ref, config, process.env, { requireKey: false });
  if (!resolved.ok) return { ok: false, error: resolved.message, model: ref ?? "no model" };
  const model = resolved.model;
  const chain = buildCandidateChain({ requested: model.ref, strict: true, fallbacks: [] }, config);
  const turn = deps.failover.beginTurn({ chain, config, env: process.env, agentId, stream: deps.streamModel });
  const request = {
    model,
    systemPrompt: call.systemPrompt,
    messages: [{ role: "user" as const, content: call.prompt, timestamp: Date.now() }],
    tools: [],
    maxTokens: Math.min(call.maxTokens, model.maxTokens),
  };
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  let text = "";
  try {
    for await (const event of turn.stream(request, AbortSignal.any([signal, deadline]))) {
      if (event.type === "text_delta") text += event.delta;
      else if (event.type === "error") return { ok: false, error: deadline.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : event.error, model: model.ref };
      else if (event.type === "done") {
        const usage = event.message.usage;
        return { ok: true, text: text.trim(), model: model.ref, ...(usage ? { usage: { input: usage.input, output: usage.output } } : {}) };
      }
    }
  } catch (err) {
    return { ok: false, error: deadline.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : (err as Error).message, model: model.ref };
  }
  return { ok: false, error: `${model.ref} ended its reply without finishing it`, model: model.ref };
}

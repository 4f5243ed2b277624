import { buildSummaryPrompt, guardedIdentifiers, missingIdentifiers, serializeConversation, SUMMARY_SYSTEM_PROMPT } from "../../sessions/compaction/index.js";
import { CHARS_PER_TOKEN } from "../../sessions/history/estimate-tokens.js";
import { modelText } from "../model-text.js";
import type { ResolvedModel, StreamModelFn, TranscriptMessage } from "../types.js";

export interface SummarizeInput {
  streamModel: StreamModelFn;
  model: ResolvedModel;
  messages: readonly TranscriptMessage[];
  previousSummary?: string;
  instructions?: string;
  maxTokens: number;
  signal: AbortSignal;
}

export type SummarizeOutcome = { ok: true; summary: string; requests: number } | { ok: false; reason: string };

/**
 * Asks the model for one summary of `messages` that folds `previousSummary` in. A conversation
 * too big for one request is summarized in stages, each stage folding the previous stage's
 * summary. The result must keep every guarded identifier; a summary that drops some is asked
 * for once more, naming them, and refused if it still drops any.
 */
export async function summarizeConversation(input: SummarizeInput): Promise<SummarizeOutcome> {
  const identifiers = guardedIdentifiers(input.messages, input.previousSummary);
  const stages = splitIntoStages(input.messages, stageBudgetChars(input.model, input.maxTokens));
  let summary = input.previousSummary;
  let requests = 0;
  for (let s = 0; s < stages.length; s += 1) {
    const last = s === stages.length - 1;
    const prompt = { messages: stages[s]!, previousSummary: summary, identifiers: last ? identifiers : [], instructions: input.instructions };
    const first = await requestSummary(input, buildSummaryPrompt(prompt));
    requests += 1;
    if (!first.ok) return first;
    summary = first.text;
    if (!last) continue;
    const missing = missingIdentifiers(summary, identifiers);
    if (missing.length === 0) break;
    const retry = await requestSummary(input, buildSummaryPrompt({ ...prompt, missing }));
    requests += 1;
    if (!retry.ok) return retry;
    const stillMissing = missingIdentifiers(retry.text, identifiers);
    if (stillMissing.length > 0) {
      return {
        ok: false,
        reason: `the summary dropped ${stillMissing.length} identifier(s) the conversation relies on (${stillMissing.slice(0, 5).join(", ")}${stillMissing.length > 5 ? ", …" : ""})`,
      };
    }
    summary = retry.text;
  }
  return { ok: true, summary: summary ?? "", requests };
}

async function requestSummary(input: SummarizeInput, prompt: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const request = {
    model: input.model,
    systemPrompt: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: "user" as const, content: prompt, timestamp: Date.now() }],
    tools: [],
    maxTokens: input.maxTokens,
  };
  const answer = await modelText(input.streamModel, request, input.signal);
  if (!answer.ok) return { ok: false, reason: `the summarizer (${input.model.ref}) failed: ${answer.error}` };
  if (!answer.text) return { ok: false, reason: `the summarizer (${input.model.ref}) returned an empty summary` };
  return { ok: true, text: answer.text };
}

/** Characters of conversation one summary request may carry: the window minus the reply, the instructions and a margin. */
function stageBudgetChars(model: ResolvedModel, maxTokens: number): number {
  const tokens = model.contextWindow - maxTokens - Math.ceil(SUMMARY_SYSTEM_PROMPT.length / CHARS_PER_TOKEN) - 1_000;
  return Math.max(2_000, tokens * CHARS_PER_TOKEN);
}

function splitIntoStages(messages: readonly TranscriptMessage[], budgetChars: number): TranscriptMessage[][] {
  const stages: TranscriptMessage[][] = [[]];
  let used = 0;
  for (const message of messages) {
    const size = serializeConversation([message]).length + 1;
    if (used + size > budgetChars && stages[stages.length - 1]!.length > 0) {
      stages.push([]);
      used = 0;
    }
    stages[stages.length - 1]!.push(message);
    used += size;
  }
  return stages;
}

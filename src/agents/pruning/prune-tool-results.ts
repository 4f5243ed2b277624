import type { ModelMessage, ToolResultMessage } from "../types.js";
import { estimateTokens } from "../../sessions/history/estimate-tokens.js";

/** Built-in ratios and sizes of tool-result pruning (only mode, ttl, tools and hardClear are configurable). */
export const PRUNING = {
  /** Below this share of the window nothing is pruned. */
  softRatio: 0.3,
  /** At or above this share (after soft-trimming) old results are cleared. */
  hardRatio: 0.5,
  softTrimOverChars: 4_000,
  keepHeadChars: 1_500,
  keepTailChars: 1_500,
  /** Hard-clear only when at least this many characters of old results could go. */
  minPrunableChars: 50_000,
  /** The newest assistant turns whose tool results are never touched. */
  protectedAssistantTurns: 3,
  placeholder: "[Old tool result content cleared]",
} as const;

export interface PruneOptions {
  windowTokens: number;
  /** Only these tools' results (exact names, or a prefix ending in `*`); deny wins. */
  tools?: { allow?: readonly string[]; deny?: readonly string[] };
  hardClear?: { enabled?: boolean; placeholder?: string };
}

/**
 * Which tool results to shorten in a conversation (model projections, oldest first; `tokens[i]`
 * is message i's estimate): soft-trim results over 4,000 characters to their head and tail,
 * then, if the context still fills half the window, clear old results (oldest first). Results
 * before the first user message and within the last three assistant turns, image blocks, and
 * every other role are never touched. Returns the replacements by index; changes nothing itself.
 */
export function planToolResultPruning(messages: readonly (ModelMessage | undefined)[], tokens: readonly number[], options: PruneOptions): Map<number, ModelMessage> {
  const replacements = new Map<number, ModelMessage>();
  let context = 0;
  for (const t of tokens) context += t;
  if (context < options.windowTokens * PRUNING.softRatio) return replacements;

  const firstUser = messages.findIndex((m) => m?.role === "user");
  let protectFrom = messages.length;
  for (let i = messages.length - 1, seen = 0; i >= 0; i -= 1) {
    if (messages[i]?.role === "assistant" && ++seen === PRUNING.protectedAssistantTurns) {
      protectFrom = i;
      break;
    }
  }
  if (firstUser < 0) return replacements;
  const candidates: number[] = [];
  for (let i = firstUser + 1; i < protectFrom; i += 1) {
    const m = messages[i];
    if (m?.role === "toolResult" && toolAllowed(m.toolName, options.tools)) candidates.push(i);
  }

  for (const i of candidates) {
    const m = messages[i] as ToolResultMessage;
    if (!m.content.some((b) => b.type === "text" && b.text.length > PRUNING.softTrimOverChars)) continue;
    const trimmed: ToolResultMessage = {
      ...m,
      content: m.content.map((b) => (b.type === "text" && b.text.length > PRUNING.softTrimOverChars ? { type: "text", text: trimText(b.text) } : b)),
    };
    replacements.set(i, trimmed);
    context += estimateTokens(trimmed) - tokens[i]!;
  }

  if (options.hardClear?.enabled === false || context < options.windowTokens * PRUNING.hardRatio) return replacements;
  let prunableChars = 0;
  for (const i of candidates) prunableChars += textChars(replacements.get(i) ?? messages[i]!);
  if (prunableChars < PRUNING.minPrunableChars) return replacements;
  const placeholder = options.hardClear?.placeholder ?? PRUNING.placeholder;
  for (const i of candidates) {
    if (context < options.windowTokens * PRUNING.hardRatio) break;
    const current = (replacements.get(i) ?? messages[i]!) as ToolResultMessage;
    if (textChars(current) === 0) continue;
    const cleared: ToolResultMessage = { ...current, content: [...current.content.filter((b) => b.type === "image"), { type: "text", text: placeholder }] };
    replacements.set(i, cleared);
    context += estimateTokens(cleared) - estimateTokens(current);
  }
  return replacements;
}

function trimText(text: string): string {
  return `${text.slice(0, PRUNING.keepHeadChars)}\n...\n${text.slice(-PRUNING.keepTailChars)}`;
}

function textChars(message: ModelMessage): number {
  if (typeof message.content === "string") return message.content.length;
  let chars = 0;
  for (const b of message.content) if (b.type === "text") chars += b.text.length;
  return chars;
}

function toolAllowed(name: string, tools: PruneOptions["tools"]): boolean {
  const matches = (patterns: readonly string[] | undefined) => patterns?.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : p === name)) ?? false;
  if (matches(tools?.deny)) return false;
  return tools?.allow === undefined || tools.allow.length === 0 || matches(tools.allow);
}

import type { ModelMessage, TranscriptMessage } from "../agents/types.js";
import { projectMessage } from "../models/model-projection.js";
import { hasToolCalls, isConversationMessage } from "../sessions/history/conversation-units.js";
import { estimateTokens } from "../sessions/history/estimate-tokens.js";
import type { CompactionInput, PlannedMessage } from "../sessions/compaction/index.js";
import { userKey } from "./conversation-order.js";

/** How a message takes part in the model's history (see groupConversationUnits). */
enum Part {
  /** Not conversation (other roles) or an empty assistant message: never sent. */
  None = 0,
  /** A user message, or an assistant message without tool calls: a unit of its own. */
  Single = 1,
  /** An assistant message with tool calls: one unit with the tool results right after it. */
  ToolTurn = 2,
  /** A tool result: belongs to the tool turn before it, or is dropped. */
  ToolResult = 3,
}

/**
 * One session's conversation kept in the order `orderConversation` gives, updated message by
 * message, with what the history window needs precomputed per message, so a turn never re-orders,
 * re-filters, re-groups or re-estimates a long session's whole transcript. `window()` gives exactly
 * what that whole-transcript walk would give (the tests' `loadHistory` in
 * test/helpers/history-oracle.ts, over `orderConversation(messages)` minus leaveOut, the latest
 * compaction summary first), each message as its model projection (`projectMessage`), reading only
 * the messages it keeps.
 *
 * Only the projections are kept, not the transcript messages: ids, usage, provenance and the
 * like are most of a message's memory, and a turn never sends them. A long-running gateway
 * holds every active session's window.
 */
export class ConversationWindow {
  // Parallel arrays in conversation order: no per-message objects, no property reads per turn.
  /** Model projections; undefined for messages a model never sees (other roles). */
  private readonly messages: (ModelMessage | undefined)[] = [];
  private readonly keys: (string | undefined)[] = [];
  private readonly parts: Part[] = [];
  private readonly tokens: number[] = [];
  /** Transcript entry ids (undefined when unknown): compaction cuts at one. */
  private readonly ids: (string | undefined)[] = [];
  /** Transcript order of each message (its arrival number): a queued message moved behind an answer keeps its own. */
  private readonly positions: number[] = [];
  private arrivals = 0;
  /**
   * Idempotency keys some assistant message already answers (the first one counts), with that
   * answer's arrival number: a compaction that drops the answer forgets the key, so what is
   * tracked stays as long as the window, not as long as the session.
   */
  private readonly answered = new Map<string, number>();
  /** User messages whose answer has not been written yet, by key, in arrival order. */
  private readonly unanswered = new Map<string, ModelMessage[]>();

  /** A compaction summary standing for everything older: always sent first, whatever the budget. */
  private head: ModelMessage | undefined;
  private headTokens: number;
  /** The summary's own text (what the next compaction folds in). */
  private summaryText: string | undefined;
  /** Sum of `tokens` plus the head: the whole context since the latest compaction. */
  private total = 0;

  /** `ids[i]` is the transcript entry id of `messages[i]` (compaction needs them; other uses may omit them). */
  constructor(messages: readonly TranscriptMessage[] = [], summary?: { message: TranscriptMessage; text: string } | TranscriptMessage, ids?: readonly (string | undefined)[]) {
    const framed: { message: TranscriptMessage; text?: string } | undefined =
      summary === undefined
        ? undefined
        : typeof (summary as { role?: unknown }).role === "string"
          ? { message: summary as TranscriptMessage }
          : (summary as { message: TranscriptMessage; text: string });
    this.head = framed ? projectMessage(framed.message) : undefined;
    this.headTokens = framed ? estimateTokens(framed.message) : 0;
    this.summaryText = framed?.text;
    for (let i = 0; i < messages.length; i += 1) this.add(messages[i]!, ids?.[i]);
  }

  get size(): number {
    return this.messages.length;
  }

  /** Estimated tokens of the whole conversation since the latest compaction (summary included), kept as messages arrive. */
  get contextTokens(): number {
    return this.headTokens + this.total;
  }

  /** Appends a message written to the transcript (in transcript order), with its entry id when known. */
  add(message: TranscriptMessage, id?: string): void {
    if (message.role === "assistant") this.moveAnsweredBefore(message);
    const key = userKey(message);
    const projection = projectMessage(message);
    if (key !== undefined && projection !== undefined && !this.answered.has(key)) {
      const waiting = this.unanswered.get(key);
      if (waiting) waiting.push(projection);
      else this.unanswered.set(key, [projection]);
    }
    const part = partOf(message);
    this.pushSlot(projection, key, part, part === Part.None ? 0 : estimateTokens(message), id);
  }

  /**
   * The entry id of the newest user message with idempotency key `key`, or undefined when the
   * window holds none (not written, or cut by a compaction).
   */
  userEntryId(key: string): string | undefined {
    for (let i = this.keys.length - 1; i >= 0; i -= 1) if (this.keys[i] === key && this.parts[i] !== Part.None) return this.ids[i];
    return undefined;
  }

  /**
   * Takes the message with entry id `id` out of the conversation (it was withdrawn unanswered):
   * it is never sent again. Its slot stays, with its id and position, so a compaction that cuts
   * at it, or orders around it, still finds it. False when the window has no such message.
   */
  withdraw(id: string): boolean {
    const at = this.ids.lastIndexOf(id);
    if (at < 0 || this.parts[at] === Part.None) return false;
    const key = this.keys[at];
    const projection = this.messages[at];
    const waiting = key !== undefined ? this.unanswered.get(key) : undefined;
    if (waiting) {
      const still = waiting.filter((m) => m !== projection);
      if (still.length === 0) this.unanswered.delete(key!);
      else this.unanswered.set(key!, still);
    }
    this.total -= this.tokens[at]!;
    this.tokens[at] = 0;
    this.parts[at] = Part.None;
    this.messages[at] = undefined;
    return true;
  }

  /**
   * What a compaction plans from, without reading the transcript: the summary in force and every
   * conversation message since, sized, in conversation order, with entry ids and user keys.
   */
  compactionInput(): CompactionInput {
    // A cut is clean where everything before it came earlier in the transcript than the cut's own
    // message, and nothing after it earlier: the transcript, read again later from that entry
    // on, then holds exactly the messages kept here.
    const n = this.messages.length;
    const laterMin = new Array<number>(n + 1);
    laterMin[n] = Number.POSITIVE_INFINITY;
    for (let i = n - 1; i >= 0; i -= 1) laterMin[i] = Math.min(laterMin[i + 1]!, this.positions[i]!);
    const messages: PlannedMessage[] = [];
    let earlierMax = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i += 1) {
      const clean = earlierMax < this.positions[i]! && laterMin[i] === this.positions[i];
      earlierMax = Math.max(earlierMax, this.positions[i]!);
      const message = this.messages[i];
      if (message === undefined || this.parts[i] === Part.None) continue;
      const id = clean ? this.ids[i] : undefined;
      const key = this.keys[i];
      messages.push({
        ...(id !== undefined ? { id } : {}),
        message: (key !== undefined ? { ...message, idempotencyKey: key } : message) as TranscriptMessage,
        tokens: this.tokens[i]!,
      });
    }
    return { ...(this.summaryText !== undefined ? { previousSummary: this.summaryText } : {}), messages, tokensBefore: this.contextTokens };
  }

  /**
   * Applies a compaction in memory: the new summary becomes the head and every message before
   * the entry `firstKeptId` is dropped. False (nothing changed) when that id is not here.
   */
  applyCompaction(firstKeptId: string, summary: { message: TranscriptMessage; text: string }): boolean {
    const cut = this.ids.indexOf(firstKeptId);
    if (cut < 0) return false;
    let dropped = 0;
    for (let i = 0; i < cut; i += 1) dropped += this.tokens[i]!;
    const gone = new Set(this.messages.slice(0, cut));
    for (const [key, waiting] of this.unanswered) {
      const still = waiting.filter((m) => !gone.has(m));
      if (still.length === 0) this.unanswered.delete(key);
      else if (still.length !== waiting.length) this.unanswered.set(key, still);
    }
    // A window rebuilt from the transcript knows only the answers after the cut.
    const goneArrivals = new Set(this.positions.slice(0, cut));
    for (const [key, arrival] of this.answered) if (goneArrivals.has(arrival)) this.answered.delete(key);
    this.messages.splice(0, cut);
    this.positions.splice(0, cut);
    this.keys.splice(0, cut);
    this.parts.splice(0, cut);
    this.tokens.splice(0, cut);
    this.ids.splice(0, cut);
    this.total -= dropped;
    this.head = projectMessage(summary.message);
    this.headTokens = estimateTokens(summary.message);
    this.summaryText = summary.text;
    return true;
  }

  /**
   * The newest whole units that fit `tokenBudget`, oldest first, leaving out user messages
   * whose key is in `leaveOut` (runs that have not finished: the turn's own prompt, queued ones).
   */
  window(tokenBudget: number, leaveOut: ReadonlySet<string>, maxUserTurns = Number.POSITIVE_INFINITY): ModelMessage[] {
    // NaN would make every comparison false and let everything through; treat it as no room.
    const budget = Number.isNaN(tokenBudget) ? 0 : tokenBudget;
    // Where the window starts (and how many messages it holds) when it ends at the oldest user message the limit keeps.
    let userTurns = 0;
    let userOldest = this.messages.length;
    let userCount = 0;
    // Newest first: find the oldest unit that still fits and how many messages go out, with no
    // list of picks (this runs every turn over the whole conversation); then copy them in order.
    let oldest = this.messages.length;
    let count = 0;
    let results = 0; // tool results seen since the last unit
    let resultsCost = 0;
    let used = this.headTokens;
    for (let i = this.messages.length - 1; i >= 0; i -= 1) {
      const key = this.keys[i];
      if (key !== undefined && leaveOut.has(key)) continue;
      const part = this.parts[i]!;
      if (part === Part.None) continue;
      if (part === Part.ToolResult) {
        results += 1;
        resultsCost += this.tokens[i]!;
        continue;
      }
      // A DM history limit counts user messages back from the newest: the oldest one kept starts the
      // window, so no answer whose question was cut is sent.
      const isUser = this.messages[i]!.role === "user";
      if (isUser && ++userTurns > maxUserTurns) {
        oldest = userOldest;
        count = userCount;
        break;
      }
      // Results not right after a tool-calling turn lost their call: they are never sent.
      const withResults = part === Part.ToolTurn;
      const cost = this.tokens[i]! + (withResults ? resultsCost : 0);
      if (used + cost > budget) break;
      used += cost;
      count += 1 + (withResults ? results : 0);
      oldest = i;
      if (isUser) {
        userOldest = oldest;
        userCount = count;
      }
      results = 0;
      resultsCost = 0;
    }
    const first = this.head ? 1 : 0;
    const out = new Array<ModelMessage>(first + count);
    if (this.head) out[0] = this.head;
    let at = first;
    let afterToolTurn = false;
    for (let i = oldest; i < this.messages.length; i += 1) {
      const key = this.keys[i];
      if (key !== undefined && leaveOut.has(key)) continue;
      const part = this.parts[i]!;
      if (part === Part.None) continue;
      if (part === Part.ToolResult) {
        if (afterToolTurn) out[at++] = this.messages[i]!;
        continue;
      }
      afterToolTurn = part === Part.ToolTurn;
      out[at++] = this.messages[i]!;
    }
    return out;
  }

  /**
   * Replaces tool-result projections in memory only (the transcript keeps them whole): `plan`
   * sees the projections and their estimates and returns replacements by index. Returns how
   * many were replaced.
   */
  rewriteToolResults(plan: (messages: readonly (ModelMessage | undefined)[], tokens: readonly number[]) => Map<number, ModelMessage>): number {
    const replacements = plan(this.messages, this.tokens);
    for (const [index, message] of replacements) {
      if (this.parts[index] !== Part.ToolResult) continue;
      const tokens = estimateTokens(message);
      this.total += tokens - this.tokens[index]!;
      this.tokens[index] = tokens;
      this.messages[index] = message;
    }
    return replacements.size;
  }

  /** The first answer to a user message puts it (and any others with its key) right before the answer. */
  private moveAnsweredBefore(message: TranscriptMessage): void {
    const answers = (message as { answers?: unknown }).answers;
    if (!Array.isArray(answers)) return;
    const moving: ModelMessage[] = [];
    for (const id of answers) {
      if (typeof id !== "string" || this.answered.has(id)) continue;
      // The answer is the next message pushed: its arrival number is the next one handed out.
      this.answered.set(id, this.arrivals);
      const waiting = this.unanswered.get(id);
      if (!waiting) continue;
      this.unanswered.delete(id);
      moving.push(...waiting);
    }
    if (moving.length === 0) return;
    // Held messages go right before their answer in arrival order, which is their current order
    // (a message waiting for its answer never moved).
    const at = moving.map((m) => this.messages.lastIndexOf(m)).sort((a, b) => a - b);
    const moved = at.map((index) => [this.messages[index], this.keys[index], this.parts[index], this.tokens[index], this.ids[index], this.positions[index]] as const);
    for (let j = at.length - 1; j >= 0; j -= 1) this.removeAt(at[j]!);
    for (const [m, key, part, tokens, id, position] of moved) this.pushSlot(m, key, part!, tokens!, id, position);
  }

  private pushSlot(message: ModelMessage | undefined, key: string | undefined, part: Part, tokens: number, id: string | undefined, position = this.arrivals++): void {
    this.messages.push(message);
    this.ids.push(id);
    this.positions.push(position);
    this.keys.push(key);
    this.parts.push(part);
    this.tokens.push(tokens);
    this.total += tokens;
  }

  private removeAt(index: number): void {
    this.total -= this.tokens[index]!;
    this.messages.splice(index, 1);
    this.keys.splice(index, 1);
    this.parts.splice(index, 1);
    this.tokens.splice(index, 1);
    this.ids.splice(index, 1);
    this.positions.splice(index, 1);
  }
}

function partOf(message: TranscriptMessage): Part {
  if (!isConversationMessage(message)) return Part.None;
  if (message.role === "toolResult") return Part.ToolResult;
  if (message.role === "user") return Part.Single;
  const content = (message as { content?: unknown }).content;
  if (content === undefined || (Array.isArray(content) && content.length === 0)) return Part.None;
  return hasToolCalls(message) ? Part.ToolTurn : Part.Single;
}

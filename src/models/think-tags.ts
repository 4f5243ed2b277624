import type { AssistantTurn } from "./assistant-turn.js";
import type { ModelStreamEvent } from "./types.js";

/** One run of a reply's text: the answer, or reasoning a model wrote inside think tags. */
export interface TextSegment {
  kind: "text" | "thinking";
  text: string;
}

const OPENING = ["<think>", "<thinking>"];
const CLOSING = ["</think>", "</thinking>"];
const TAGS = [...OPENING, ...CLOSING];

/**
 * Reads `<think>…</think>` (and `<thinking>…</thinking>`) out of a streamed reply: models served
 * by OpenAI-compatible local servers often write their reasoning into the text that way. The
 * rules:
 *
 * - What is inside a tag pair is reasoning, never the answer; so is an unclosed tag's rest,
 *   also after answer text.
 * - A reply that is nothing but one unclosed tag's content is the answer after all
 *   (`endsAsWrappedAnswer`): the malformed tag is dropped, the text kept.
 * - A closing tag without its opening tag is dropped; the text before it has gone out as text.
 * - Whitespace between a closing tag and the answer is not part of the answer.
 *
 * A tag split over two chunks is held back until the next chunk says what it is.
 */
export class ThinkTagSplitter {
  private inside = false;
  private held = "";
  private sawAnswer = false;
  private taggedThinking = "";

  push(chunk: string): TextSegment[] {
    const text = this.held + chunk;
    this.held = "";
    const out: TextSegment[] = [];
    let from = 0;
    while (from < text.length) {
      const lt = text.indexOf("<", from);
      if (lt === -1) {
        this.emit(out, text.slice(from));
        break;
      }
      this.emit(out, text.slice(from, lt));
      const rest = text.slice(lt);
      const tag = TAGS.find((candidate) => rest.slice(0, candidate.length).toLowerCase() === candidate);
      if (tag) {
        if (OPENING.includes(tag)) this.inside = true;
        else this.inside = false;
        from = lt + tag.length;
        continue;
      }
      // The end of the chunk may be the start of a tag: wait for the next chunk.
      if (TAGS.some((candidate) => rest.length < candidate.length && candidate.startsWith(rest.toLowerCase()))) {
        this.held = rest;
        break;
      }
      this.emit(out, "<");
      from = lt + 1;
    }
    return out;
  }

  /** What is still held back when the stream ends. */
  end(): TextSegment[] {
    const out: TextSegment[] = [];
    if (this.held) this.emit(out, this.held);
    this.held = "";
    return out;
  }

  /** The reply was one unclosed think tag and nothing else: its content is the answer. */
  endsAsWrappedAnswer(): string | undefined {
    return this.inside && !this.sawAnswer && this.taggedThinking.trim() ? this.taggedThinking.trim() : undefined;
  }

  private emit(out: TextSegment[], text: string): void {
    if (!text) return;
    if (this.inside) {
      this.taggedThinking += text;
      push(out, "thinking", text);
      return;
    }
    // Whitespace before the answer (after a closing tag, or before an opening one) is not part of it.
    const answer = this.sawAnswer ? text : text.replace(/^\s+/, "");
    if (!answer) return;
    this.sawAnswer = true;
    push(out, "text", answer);
  }
}

function push(out: TextSegment[], kind: TextSegment["kind"], text: string): void {
  const last = out.at(-1);
  if (last?.kind === kind) last.text += text;
  else out.push({ kind, text });
}

/**
 * A streamed reply's text and reasoning into its AssistantTurn and stream events, with think
 * tags in the text read as reasoning (ThinkTagSplitter). Shared by the readers of servers whose
 * models may write tags: Chat Completions and Ollama.
 */
export class ReplyTextReader {
  private readonly tags = new ThinkTagSplitter();
  /** The server sent reasoning in a field of its own: think tags are then not the only thinking. */
  private reasoningField = false;

  constructor(private readonly turn: AssistantTurn) {}

  /** Reasoning the server sent apart from the text (`reasoning_content`, Ollama's `thinking`). */
  thinking(delta: string, events: ModelStreamEvent[]): void {
    this.reasoningField = true;
    this.add({ kind: "thinking", text: delta }, events);
  }

  text(delta: string, events: ModelStreamEvent[]): void {
    for (const segment of this.tags.push(delta)) this.add(segment, events);
  }

  /** Text that must not be read for tags (a refusal). */
  plainText(delta: string, events: ModelStreamEvent[]): void {
    this.add({ kind: "text", text: delta }, events);
  }

  /** The stream ended: text held back goes in, and a reply that was one unclosed tag becomes the answer. */
  end(): void {
    for (const segment of this.tags.end()) this.add(segment, []);
    const wrapped = this.tags.endsAsWrappedAnswer();
    if (wrapped !== undefined && !this.reasoningField) this.turn.thinkingIsAnswer(wrapped);
  }

  private add(segment: TextSegment, events: ModelStreamEvent[]): void {
    if (segment.kind === "thinking") {
      this.turn.appendThinking(segment.text);
      events.push({ type: "thinking_delta", delta: segment.text });
    } else {
      this.turn.appendText(segment.text);
      events.push({ type: "text_delta", delta: segment.text });
    }
  }
}

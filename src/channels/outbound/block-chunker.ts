import { chunkText, findFences, type Fence } from "./chunk-text.js";

export type BreakPreference = "paragraph" | "newline" | "sentence";

/** How a reply still being written is cut into blocks (OpenClaw's `blockStreamingChunk`). */
export interface BlockChunking {
  /** A block is not cut before it holds this many characters, unless its text ends. */
  minChars: number;
  /** Nor does it grow past this: beyond it, it is cut where it must be (a code block closed and reopened). */
  maxChars: number;
  /** The kind of break a block ends at while it fits; past `maxChars` weaker ones are taken too. */
  breakPreference: BreakPreference;
  /** `streaming.chunkMode: newline`: every paragraph break ends a block, however short it is. */
  flushOnParagraph: boolean;
}

type BreakKind = BreakPreference;

/**
 * Cuts the text of a reply the model is still writing into blocks, each sent as its own
 * message: a block ends at a break of the preferred kind between `minChars` and `maxChars`,
 * never inside a code block; text that outgrows `maxChars` without one is cut as a finished
 * reply is (paragraph, line, sentence, word, then anywhere; a code block closed and reopened).
 * A break counts only once the text after it has arrived (a paragraph break needs its blank
 * line), so a block never ends where the model was only pausing.
 */
export class BlockChunker {
  private buffer = "";

  constructor(private readonly chunking: BlockChunking) {}

  /** Add text; with `cut`, returns the blocks it completed (without, it only buffers). */
  push(text: string, cut = true): string[] {
    this.buffer += text;
    if (!cut) return [];
    const blocks: string[] = [];
    for (;;) {
      const at = this.preferredCut();
      if (at !== undefined) {
        const block = this.take(at);
        if (block) blocks.push(block);
        continue;
      }
      if (this.buffer.length <= this.chunking.maxChars) return blocks;
      const forced = chunkText(this.buffer, { maxChars: this.chunking.maxChars });
      if (forced.length < 2) return blocks;
      // The last piece continues (a code block cut open is reopened at its top); the whitespace
      // the model wrote after it is kept for the text that follows.
      const trailing = /\s*$/.exec(this.buffer)![0];
      this.buffer = forced.pop()! + trailing;
      blocks.push(...forced);
    }
  }

  /** The text ended: everything left, cut only where `maxChars` makes it. */
  flush(): string[] {
    const rest = this.buffer;
    this.buffer = "";
    return chunkText(rest, { maxChars: this.chunking.maxChars });
  }

  /** Forget what is buffered (the text it belonged to will not be finished). */
  discard(): void {
    this.buffer = "";
  }

  private preferredCut(): number | undefined {
    const { buffer } = this;
    const { minChars, maxChars, breakPreference, flushOnParagraph } = this.chunking;
    const high = Math.min(maxChars, buffer.length - 1);
    const fences = findFences(buffer);
    if (flushOnParagraph) {
      for (let at = 0; at <= high; at += 1) if (isBreak(buffer, at, "paragraph") && !insideFence(fences, at)) return at;
    }
    if (buffer.length < minChars) return undefined;
    for (let at = high; at >= minChars; at -= 1) if (isBreak(buffer, at, breakPreference) && !insideFence(fences, at)) return at;
    return undefined;
  }

  /** The block before `at`; what follows, without the blank lines or spaces of the break, stays buffered. */
  private take(at: number): string {
    const block = this.buffer.slice(0, at).trimEnd();
    let rest = this.buffer.slice(at).replace(/^(?:[ \t\r]*\n)+/, "");
    if (this.buffer[at] === " " || this.buffer[at] === "\t") rest = rest.replace(/^[ \t]+/, "");
    this.buffer = rest;
    return /\S/.test(block) ? block : "";
  }
}

/** A block may end at `at` (the character there is the break): only once what decides it has arrived. */
function isBreak(text: string, at: number, kind: BreakKind): boolean {
  const ch = text[at];
  switch (kind) {
    case "paragraph":
      return ch === "\n" && /^[ \t\r]*\n/.test(text.slice(at + 1, at + 81));
    case "newline":
      return ch === "\n";
    case "sentence":
      return (ch === " " || ch === "\t") && /[.!?]/.test(text[at - 1] ?? "");
  }
}

function insideFence(fences: readonly Fence[], at: number): boolean {
  return fences.some((fence) => at > fence.start && at < fence.end);
}

export interface ChunkTextOptions {
  /** Characters per chunk, counted in UTF-16 code units (what the platforms count). */
  maxChars: number;
  /** Lines per chunk (Discord's 17-line soft limit). */
  maxLines?: number;
}

/**
 * Splits a Markdown reply into platform messages, each within `maxChars` (and `maxLines`).
 * Cuts prefer a paragraph break, then a line break, a sentence end, a space, and only then a
 * hard cut (never inside a surrogate pair). A cut inside a fenced code block closes the fence at
 * the end of the chunk and reopens it (same info string) at the start of the next, so every
 * message renders as code; those added lines count toward the limits.
 *
 * Text that already fits is returned unchanged; text with nothing but whitespace yields `[]`.
 */
export function chunkText(text: string, options: ChunkTextOptions): string[] {
  const limits = checkLimits(options);
  if (!/\S/.test(text)) return [];
  if (fits(text, limits)) return [text];
  return new Chunker(text, limits).run();
}

interface Limits {
  maxChars: number;
  maxLines: number;
}

/** A fenced code block, by offsets into the text. */
export interface Fence {
  /** Start of the opening fence line. */
  start: number;
  /** First character after the opening line. */
  contentStart: number;
  /** Start of the closing fence line (text length when the block is never closed). */
  closeStart: number;
  /** End of the closing fence line, before its newline. */
  end: number;
  /** The opening line as written (` ```ts `), repeated at the top of a continuation chunk. */
  openLine: string;
  /** What closes it when a chunk must end inside it. */
  closeLine: string;
}

type BreakKind = "paragraph" | "newline" | "sentence" | "space";
const BREAK_PREFERENCE: BreakKind[] = ["paragraph", "newline", "sentence", "space"];
/** A preferred break is taken only if the chunk keeps at least this share of the room it has. */
const MIN_FILL_FOR_PREFERRED_BREAK = 0.5;

class Chunker {
  private readonly fences: Fence[];
  /** Offsets of every "\n", for the line budget. */
  private readonly newlines: number[] = [];
  /** nonSpace[i] = non-whitespace characters in text[0, i), so "has content" is O(1). */
  private readonly nonSpace: Int32Array;
  private readonly chunks: string[] = [];
  private pos = 0;
  /** The fence the previous chunk ended inside: this chunk starts by reopening it. */
  private openFence: Fence | undefined;

  constructor(
    private readonly text: string,
    private readonly limits: Limits,
  ) {
    this.fences = findFences(text);
    this.nonSpace = new Int32Array(text.length + 1);
    for (let i = 0; i < text.length; i += 1) {
      if (text[i] === "\n") this.newlines.push(i);
      this.nonSpace[i + 1] = this.nonSpace[i]! + (/\s/.test(text[i]!) ? 0 : 1);
    }
  }

  run(): string[] {
    this.pos = this.skipBlank(0);
    while (this.hasContent(this.pos, this.text.length)) {
      const prefix = this.prefix();
      const rest = prefix + this.text.slice(this.pos).trimEnd();
      if (fits(rest, this.limits)) {
        this.chunks.push(rest);
        break;
      }
      const cut = this.findCut();
      const fence = this.fenceAround(cut);
      const suffix = fence ? `\n${fence.closeLine}` : "";
      this.chunks.push(prefix + this.text.slice(this.pos, cut).trimEnd() + suffix);
      this.openFence = fence;
      this.pos = fence ? this.skipSeparator(cut) : this.skipBlank(cut);
    }
    return this.chunks;
  }

  private prefix(): string {
    return this.openFence ? `${this.openFence.openLine}\n` : "";
  }

  /** Where the current chunk ends: the best break that fits, else a hard cut. */
  private findCut(): number {
    const room = this.windowEnd(undefined) - this.pos;
    for (const minFill of [MIN_FILL_FOR_PREFERRED_BREAK, 0]) {
      const lowest = this.pos + Math.max(1, Math.ceil(room * minFill));
      for (const kind of BREAK_PREFERENCE) {
        const cut = this.lastBreak(kind, lowest);
        if (cut !== undefined) return cut;
      }
    }
    return this.hardCut();
  }

  /** The rightmost break of this kind at or after `lowest` that fits with its fence lines. */
  private lastBreak(kind: BreakKind, lowest: number): number | undefined {
    const { text } = this;
    for (let cut = Math.min(this.windowEnd(undefined), text.length - 1); cut >= lowest; cut -= 1) {
      if (!isBreak(text, cut, kind)) continue;
      if (this.cutFits(cut, true)) return cut;
    }
    return undefined;
  }

  private hardCut(): number {
    const { text } = this;
    for (let cut = Math.min(this.windowEnd(undefined), text.length - 1); cut > this.pos; cut -= 1) {
      if (isLowSurrogate(text.charCodeAt(cut)) && isHighSurrogate(text.charCodeAt(cut - 1))) continue;
      if (this.cutFits(cut, false)) return cut;
    }
    throw new RangeError(this.tooSmallMessage());
  }

  /**
   * A cut fits when the chunk has content and stays within the limits, counting the closing
   * fence it needs. Inside a code block it must also leave code on both sides (no empty
   * blocks); a hard cut may leave only whitespace after it.
   */
  private cutFits(cut: number, needCodeAfter: boolean): boolean {
    if (!this.hasContent(this.pos, cut)) return false;
    const fence = this.fenceAt(cut);
    if (fence === "inside-fence-line") return false;
    if (!fence) return cut <= this.windowEnd(undefined);
    if (!this.hasContent(Math.max(this.pos, fence.contentStart), cut)) return false;
    if (needCodeAfter && !this.hasContent(cut, fence.closeStart)) return false;
    return cut <= this.windowEnd(fence);
  }

  /**
   * The furthest offset the chunk's body may reach: what is left of `maxChars` and `maxLines`
   * after the reopened fence line and, when the cut falls inside `closing`, its closing line.
   */
  private windowEnd(closing: Fence | undefined): number {
    const prefix = this.prefix();
    const prefixLines = prefix ? 1 : 0;
    const suffixChars = closing ? closing.closeLine.length + 1 : 0;
    const suffixLines = closing ? 1 : 0;
    const byChars = this.pos + this.limits.maxChars - prefix.length - suffixChars;
    const lineBudget = this.limits.maxLines - prefixLines - suffixLines;
    if (lineBudget <= 0) return this.pos;
    // The body may hold lineBudget lines, i.e. end at the lineBudget-th newline from pos.
    const first = lowerBound(this.newlines, this.pos);
    const byLines = this.newlines[first + lineBudget - 1] ?? Infinity;
    return Math.min(byChars, byLines);
  }

  /** The fence a chunk ending at `cut` would leave open; a cut through a fence line is refused. */
  private fenceAt(cut: number): Fence | "inside-fence-line" | undefined {
    for (const fence of this.fences) {
      if (cut <= fence.start || cut >= fence.end) continue;
      if (cut < fence.contentStart || (cut > fence.closeStart && fence.closeStart < fence.end)) return "inside-fence-line";
      return fence;
    }
    return undefined;
  }

  private fenceAround(cut: number): Fence | undefined {
    const fence = this.fenceAt(cut);
    return fence === "inside-fence-line" ? undefined : fence;
  }

  private hasContent(from: number, to: number): boolean {
    return to > from && this.nonSpace[to]! - this.nonSpace[from]! > 0;
  }

  /** Outside code: skip whitespace and blank lines, keeping the indentation of the line that follows. */
  private skipBlank(from: number): number {
    const { text } = this;
    let at = from;
    let lineStart = from === 0 || text[from - 1] === "\n" ? from : -1;
    while (at < text.length && /\s/.test(text[at]!)) {
      if (text[at] === "\n") lineStart = at + 1;
      at += 1;
    }
    return lineStart >= 0 && at < text.length ? lineStart : at;
  }

  /** Inside code: drop only the one character the cut was made at, so indentation survives. */
  private skipSeparator(cut: number): number {
    return /[ \t\n]/.test(this.text[cut] ?? "") ? cut + 1 : cut;
  }

  private tooSmallMessage(): string {
    const { maxChars, maxLines } = this.limits;
    const fence = this.openFence ?? this.fences.find((f) => f.start >= this.pos && f.start <= this.windowEnd(undefined));
    const limits = `maxChars ${maxChars}${Number.isFinite(maxLines) ? `, maxLines ${maxLines}` : ""}`;
    if (fence) {
      const needed = fence.openLine.length + fence.closeLine.length + 3;
      return `chunkText: ${limits} is too small to split a code block: a chunk needs its fence lines ("${fence.openLine}" and "${fence.closeLine}") plus at least one character of code (${needed} characters, 3 lines)`;
    }
    return `chunkText: ${limits} is too small: no cut fits at offset ${this.pos} (a surrogate pair is never split, and a line's indentation is kept)`;
  }
}

function checkLimits(options: ChunkTextOptions): Limits {
  const { maxChars, maxLines } = options;
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`chunkText: maxChars must be a positive integer, got ${maxChars}`);
  if (maxLines !== undefined && (!Number.isInteger(maxLines) || maxLines < 1)) {
    throw new RangeError(`chunkText: maxLines must be a positive integer, got ${maxLines}`);
  }
  return { maxChars, maxLines: maxLines ?? Infinity };
}

function fits(chunk: string, limits: Limits): boolean {
  if (chunk.length > limits.maxChars) return false;
  if (!Number.isFinite(limits.maxLines)) return true;
  let lines = 1;
  for (let i = chunk.indexOf("\n"); i >= 0; i = chunk.indexOf("\n", i + 1)) lines += 1;
  return lines <= limits.maxLines;
}

/** A chunk ending at `cut` ends here (the character at `cut` is where the next one may start). */
function isBreak(text: string, cut: number, kind: BreakKind): boolean {
  const ch = text[cut];
  switch (kind) {
    case "paragraph":
      return ch === "\n" && /^[ \t\r]*(\n|$)/.test(text.slice(cut + 1, cut + 81));
    case "newline":
      return ch === "\n";
    case "sentence":
      return (ch === " " || ch === "\t") && /[.!?]/.test(text[cut - 1] ?? "");
    case "space":
      return ch === " " || ch === "\t";
  }
}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** CommonMark fenced code blocks: ``` or ~~~ (3+), closed by a run of the same character at least as long. */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  let open: { start: number; contentStart: number; openLine: string; indent: string; marker: string } | undefined;
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, "");
    const next = newline < 0 ? text.length : newline + 1;
    if (!open) {
      const match = FENCE_OPEN.exec(line);
      // A backtick fence's info string may not contain backticks (that is inline code).
      if (match && !(match[2]![0] === "`" && match[3]!.includes("`"))) {
        open = { start: lineStart, contentStart: next, openLine: line, indent: match[1]!, marker: match[2]! };
      }
    } else if (isClosingFence(line, open.marker)) {
      fences.push({ start: open.start, contentStart: open.contentStart, closeStart: lineStart, end: lineEnd, openLine: open.openLine, closeLine: open.indent + open.marker });
      open = undefined;
    }
    lineStart = next;
  }
  if (open) {
    fences.push({ start: open.start, contentStart: open.contentStart, closeStart: text.length, end: text.length, openLine: open.openLine, closeLine: open.indent + open.marker });
  }
  return fences;
}

function isClosingFence(line: string, marker: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!match && match[1]![0] === marker[0] && match[1]!.length >= marker.length;
}

function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

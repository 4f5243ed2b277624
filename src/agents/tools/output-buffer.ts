import { safeCut, truncationMarker } from "./text-cut.js";

/**
 * Output of a running command, kept within a character budget: the first half of the budget
 * holds the beginning (how it started), the second half a rolling window of the latest output
 * (where it is now, and the error if it failed). Everything between is counted, not kept.
 * Positions are absolute offsets into the full stream, so readers can resume where they stopped.
 */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  /** Once output spills into the tail, the head is final: appending to it would reorder text. */
  private headClosed = false;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(readonly maxChars: number) {
    this.headLimit = Math.floor(maxChars / 2);
    this.tailLimit = maxChars - this.headLimit;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    let rest = chunk;
    if (!this.headClosed) {
      const room = safeCut(rest, this.headLimit - this.head.length);
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.headClosed = true;
    this.tail += rest;
    // Trim lazily (at twice the limit) so a chatty command does not cost a copy per chunk.
    if (this.tail.length > this.tailLimit * 2) this.trimTail();
  }

  /** Characters written so far, kept or not. */
  get totalChars(): number {
    return this.total;
  }

  get droppedChars(): number {
    this.trimTail();
    return this.total - this.head.length - this.tail.length;
  }

  /** Everything kept, with a marker where the middle was dropped. */
  text(): string {
    return this.readFrom(0).text;
  }

  /** What was written from absolute offset `from` on, as far as it is still kept. */
  readFrom(from: number): { text: string; nextOffset: number; droppedChars: number } {
    this.trimTail();
    const tailStart = this.total - this.tail.length;
    let text = "";
    let dropped = 0;
    let position = Math.max(0, from);
    if (position < this.head.length) {
      text += this.head.slice(position);
      position = this.head.length;
    }
    if (position < tailStart) {
      dropped = tailStart - position;
      text += truncationMarker(dropped);
      position = tailStart;
    }
    text += this.tail.slice(position - tailStart);
    return { text, nextOffset: this.total, droppedChars: dropped };
  }

  private trimTail(): void {
    if (this.tail.length > this.tailLimit) this.tail = this.tail.slice(safeCut(this.tail, this.tail.length - this.tailLimit));
  }
}

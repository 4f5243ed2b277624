import type { ChunkTextOptions } from "./chunk-text.js";

/**
 * The last resort when `chunkText` finds no cut that keeps code blocks whole (a run of blank
 * lines inside a block longer than a message may be, or a line limit too small for the fence
 * lines): lines and characters only, so the reply still goes out. Blank-only pieces are dropped;
 * a line longer than `maxChars` is cut, never inside a surrogate pair.
 */
export function splitPlain(text: string, options: ChunkTextOptions): string[] {
  const maxChars = Math.max(2, options.maxChars);
  const maxLines = options.maxLines ?? Infinity;
  const chunks: string[] = [];
  let lines: string[] = [];
  let chars = 0;
  const push = () => {
    const chunk = lines.join("\n");
    if (chunk.trim()) chunks.push(chunk);
    lines = [];
    chars = 0;
  };
  for (const whole of text.split("\n")) {
    let line = whole;
    while (line.length > maxChars) {
      let end = maxChars;
      const code = line.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1;
      push();
      lines.push(line.slice(0, end));
      push();
      line = line.slice(end);
    }
    const grown = lines.length === 0 ? line.length : chars + 1 + line.length;
    if (lines.length >= maxLines || grown > maxChars) push();
    chars = lines.length === 0 ? line.length : chars + 1 + line.length;
    lines.push(line);
  }
  push();
  return chunks;
}

/** A piece of a memory file as the index stores it: 1-based inclusive line range. */
export interface TextChunk {
  startLine: number;
  endLine: number;
  text: string;
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;

/**
 * Tokens as embedding models count them, roughly: a CJK character is about one token, other
 * text about four characters a token. Close enough to size chunks; never used for billing.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * Splits text into chunks of about `maxTokens`, each starting with the last `overlapTokens` of
 * the one before, so a fact that straddles a boundary is whole in one of them. Chunks end at
 * line ends; a single line longer than a chunk is cut into pieces that keep its line number.
 * Blank-only chunks are dropped.
 */
export function chunkText(text: string, maxTokens: number, overlapTokens: number): TextChunk[] {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const pieces: { line: number; text: string; tokens: number }[] = [];
  lines.forEach((line, index) => {
    for (const part of splitLongLine(line, maxTokens)) pieces.push({ line: index + 1, text: part, tokens: estimateTokens(part) + 1 });
  });

  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < pieces.length) {
    let end = start;
    let tokens = 0;
    while (end < pieces.length && (end === start || tokens + pieces[end]!.tokens <= maxTokens)) tokens += pieces[end++]!.tokens;
    const slice = pieces.slice(start, end);
    const body = joinPieces(slice);
    if (body.trim() !== "") chunks.push({ startLine: slice[0]!.line, endLine: slice[slice.length - 1]!.line, text: body });
    if (end >= pieces.length) break;
    // Step back over the overlap, but always move forward by at least one piece.
    let next = end;
    let overlap = 0;
    while (next - 1 > start && overlap + pieces[next - 1]!.tokens <= overlapTokens) overlap += pieces[--next]!.tokens;
    start = next;
  }
  return chunks;
}

function splitLongLine(line: string, maxTokens: number): string[] {
  if (estimateTokens(line) <= maxTokens) return [line];
  const parts: string[] = [];
  let rest = line;
  while (rest.length > 0) {
    let cut = Math.min(rest.length, maxTokens * 4);
    while (cut > 1 && estimateTokens(rest.slice(0, cut)) > maxTokens) cut = Math.floor(cut * 0.8);
    // Never split a surrogate pair.
    if (cut < rest.length && /[\ud800-\udbff]/.test(rest[cut - 1]!)) cut -= 1;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return parts;
}

/** Pieces of one cut line join without a newline; separate lines with one. */
function joinPieces(slice: { line: number; text: string }[]): string {
  let out = "";
  slice.forEach((piece, i) => {
    if (i > 0) out += piece.line === slice[i - 1]!.line ? "" : "\n";
    out += piece.text;
  });
  return out;
}

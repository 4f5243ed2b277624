import { chunkText, findFences, type ChunkTextOptions } from "./chunk-text.js";

/**
 * `streaming.chunkMode: newline`: a reply split only at paragraph breaks (blank lines outside
 * code blocks), as many whole paragraphs to a message as its limits take; a paragraph too long
 * on its own is cut as `chunkText` cuts it.
 */
export function chunkByParagraph(text: string, options: ChunkTextOptions): string[] {
  const fences = findFences(text);
  const paragraphs: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/\n[ \t\r]*\n+/g)) {
    const at = match.index;
    if (fences.some((fence) => at > fence.start && at < fence.end)) continue;
    paragraphs.push(text.slice(start, at));
    start = at + match[0].length;
  }
  paragraphs.push(text.slice(start));

  const chunks: string[] = [];
  let current = "";
  for (const raw of paragraphs) {
    const paragraph = raw.trimEnd();
    if (!/\S/.test(paragraph)) continue;
    const joined = current ? `${current}\n\n${paragraph}` : paragraph;
    if (fits(joined, options)) {
      current = joined;
      continue;
    }
    if (current) chunks.push(current);
    current = "";
    if (fits(paragraph, options)) current = paragraph;
    else chunks.push(...chunkText(paragraph, options));
  }
  if (current) chunks.push(current);
  return chunks;
}

function fits(text: string, { maxChars, maxLines }: ChunkTextOptions): boolean {
  return text.length <= maxChars && (maxLines === undefined || text.split("\n").length <= maxLines);
}

/** The most answer text kept from one xAI response; the rest is cut and the answer marked truncated. */
export const XAI_MAX_CONTENT_CHARS = 20_000;
/** The most citation URLs kept from one response. */
export const XAI_MAX_CITATIONS = 20;

/** A citation's place in the answer text (xAI's `url_citation` annotation), in characters. */
export interface XaiInlineCitation {
  start_index: number;
  end_index: number;
  url: string;
}

/** What an xAI Responses answer says: its text, its sources and which output items it held. */
export interface XaiAnswer {
  content: string;
  /** http(s) URLs only, each once, at most XAI_MAX_CITATIONS. */
  citations: string[];
  inlineCitations: XaiInlineCitation[];
  /** The `type` of every output item, once each (e.g. `code_interpreter_call`, `message`). */
  outputTypes: string[];
  truncated: boolean;
}

/** An answer that holds no text: xAI ran but said nothing to give the model. */
export class XaiAnswerError extends Error {}

/**
 * Reads a Responses API body: the `output_text` blocks of its `message` items (cut at
 * XAI_MAX_CONTENT_CHARS), the response's `citations` list, else the blocks' `url_citation`
 * annotations, and the inline citations that fall inside the kept text. Anything not http(s) is
 * not a citation.
 */
export function parseXaiAnswer(body: unknown): XaiAnswer {
  const data = isRecord(body) ? body : {};
  const output = Array.isArray(data.output) ? data.output.filter(isRecord) : [];
  let content = "";
  let truncated = false;
  const inline: XaiInlineCitation[] = [];
  for (const item of output) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const block of item.content) {
      if (!isRecord(block) || block.type !== "output_text" || typeof block.text !== "string") continue;
      const offset = content.length;
      const room = XAI_MAX_CONTENT_CHARS - offset;
      if (room <= 0) {
        truncated ||= block.text.length > 0;
        continue;
      }
      content += block.text.slice(0, room);
      if (block.text.length > room) truncated = true;
      for (const note of Array.isArray(block.annotations) ? block.annotations : []) {
        const citation = inlineCitation(note, offset, content.length);
        if (citation) inline.push(citation);
      }
    }
  }
  if (!content.trim()) throw new XaiAnswerError("the answer held no text");
  const listed = Array.isArray(data.citations) ? data.citations : [];
  const citations = uniqueUrls(listed.length > 0 ? listed : inline.map((c) => c.url));
  return {
    content,
    citations,
    inlineCitations: inline.slice(0, XAI_MAX_CITATIONS),
    outputTypes: [...new Set(output.map((item) => item.type).filter((type): type is string => typeof type === "string"))],
    truncated,
  };
}

function inlineCitation(note: unknown, offset: number, end: number): XaiInlineCitation | undefined {
  if (!isRecord(note) || note.type !== "url_citation") return undefined;
  const url = webUrl(note.url);
  const start = note.start_index;
  const stop = note.end_index;
  if (!url || !Number.isSafeInteger(start) || !Number.isSafeInteger(stop)) return undefined;
  const from = offset + (start as number);
  const to = offset + (stop as number);
  return from >= offset && to >= from && to <= end ? { start_index: from, end_index: to, url } : undefined;
}

function uniqueUrls(values: readonly unknown[]): string[] {
  const urls = new Set<string>();
  for (const value of values) {
    if (urls.size >= XAI_MAX_CITATIONS) break;
    const url = webUrl(value);
    if (url) urls.add(url);
  }
  return [...urls];
}

function webUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

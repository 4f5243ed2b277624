import { fileURLToPath } from "node:url";
import { FileReadError } from "./file-read-error.js";
import { IsolatedChildError, runIsolatedChild } from "./isolated-child.js";

/** `gateway.http.endpoints.<endpoint>.files.pdf`, defaults filled. */
export interface PdfLimits {
  /** Pages read from the start of a PDF. */
  maxPages: number;
  /** Pixels of all the pages rendered to images together. */
  maxPixels: number;
  /** A page with less text than this is also rendered to an image. */
  minTextChars: number;
}

/** OpenClaw's PDF defaults: 4,000,000 pixels rendered in all, pages with under 200 characters rendered. */
export function pdfLimitsFrom(config: { maxPages?: number; maxPixels?: number; minTextChars?: number } | undefined, defaultMaxPages: number): PdfLimits {
  return { maxPages: config?.maxPages ?? defaultMaxPages, maxPixels: config?.maxPixels ?? 4_000_000, minTextChars: config?.minTextChars ?? 200 };
}

export type PdfChildOptions = PdfLimits;

export type PdfChildReply = { ok: true; text: string; images: string[] } | { ok: false; error: string; password: boolean };

/** A PDF's text and the pages rendered to PNG images. */
export interface ExtractedPdf {
  text: string;
  images: { mimeType: "image/png"; bytes: Buffer }[];
}

/** The reader's own heap; a PDF that needs more is refused. */
const CHILD_HEAP_MB = 512;
/** What the reader may print: the text and the rendered pages, base64. */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;
const CHILD_SCRIPT = fileURLToPath(new URL("./pdf-extract-child.js", import.meta.url));

/**
 * Reads a PDF in a child process of its own (pdf-extract-child.ts), given up after `timeoutMs`
 * (set by `timeoutKey`). What goes wrong is the file's, a FileReadError: a PDF that does not parse,
 * needs a password, or takes too long.
 */
export async function extractPdf(bytes: Buffer, limits: PdfLimits, timeoutMs: number, timeoutKey: string): Promise<ExtractedPdf> {
  const refuse = (why: string) => new FileReadError(`the PDF could not be read: ${why.replace(/\.$/, "")}`);
  let reply: PdfChildReply;
  try {
    reply = (await runIsolatedChild(CHILD_SCRIPT, [JSON.stringify(limits satisfies PdfChildOptions)], bytes, {
      heapMb: CHILD_HEAP_MB,
      timeoutMs,
      maxReplyBytes: MAX_REPLY_BYTES,
    })) as PdfChildReply;
  } catch (err) {
    if (!(err instanceof IsolatedChildError)) throw err;
    if (err.reason === "timeout") throw refuse(`reading it took longer than ${timeoutMs} ms (${timeoutKey})`);
    if (err.reason === "too-large") throw refuse("its text and page images came to more than 64 MB");
    throw refuse(err.message);
  }
  if (!reply.ok) throw refuse(reply.password ? "it is protected by a password" : reply.error);
  return { text: reply.text, images: reply.images.map((image) => ({ mimeType: "image/png", bytes: Buffer.from(image, "base64") })) };
}

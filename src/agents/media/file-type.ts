import path from "node:path";
import { decodeWindows1252 } from "../../infra/windows-1252.js";

/** A readable type by extension, for a file sent without a specific type. */
const TYPES_BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".html": "text/html",
  ".htm": "text/html",
  ".pdf": "application/pdf",
};

/** Types that say nothing about the content: the bytes and the name decide. */
const GENERIC_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream", "application/binary", "application/x-download"]);

/** The most of a file's start looked at. */
export const FILE_TYPE_SAMPLE_BYTES = 4096;

/**
 * A file's type for reading it: a PDF by its signature whatever it was declared as; else the
 * declared type (with its charset) when it names one; else one by the name's extension; else
 * `text/plain` when the first bytes read as text (a byte-order mark, or no NUL and valid UTF-8 or
 * printable Windows-1252); else the declared type as it was (which is then not read). `head` is
 * the file's first bytes (FILE_TYPE_SAMPLE_BYTES are enough).
 */
export function fileType(head: Uint8Array, declared: { mimeType: string; charset?: string }, name: string | undefined): { mimeType: string; charset?: string } {
  if (startsWith(head, "%PDF-")) return { mimeType: "application/pdf" };
  if (!GENERIC_TYPES.has(declared.mimeType)) return declared;
  const byExtension = name ? TYPES_BY_EXTENSION[path.extname(name).toLowerCase()] : undefined;
  if (byExtension) return { mimeType: byExtension };
  return looksLikeText(head.subarray(0, FILE_TYPE_SAMPLE_BYTES)) ? { mimeType: "text/plain" } : declared;
}

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
}

function looksLikeText(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  if ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff)) return true;
  if (sample.includes(0)) return false;
  // A multi-byte character the sample cuts in two is not invalid UTF-8.
  let end = sample.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = sample[end - back]!;
    if ((byte & 0xc0) === 0xc0) {
      end -= back;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  try {
    return printableShare(new TextDecoder("utf-8", { fatal: true }).decode(sample.subarray(0, end))) > 0.95;
  } catch {
    return printableShare(decodeWindows1252(sample)) > 0.95;
  }
}

/** The share of characters that are not control characters (tabs and line breaks count as text). */
function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) control += 1;
  }
  return 1 - control / text.length;
}

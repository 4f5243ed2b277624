import fs from "node:fs";
import path from "node:path";
import { filesPrompt, type ReadFile } from "../../agents/media/file-prompt.js";
import { FileReadError } from "../../agents/media/file-read-error.js";
import { readUserFile } from "../../agents/media/user-file.js";
import { FILE_TYPE_SAMPLE_BYTES, fileType } from "../../agents/media/file-type.js";
import { pdfLimitsFrom } from "../../agents/media/pdf-extract.js";
import type { OpenClawConfig } from "../../config/index.js";
import { READABLE_FILE_TYPES } from "../../config/http-file-types.js";
import type { Logger } from "../../infra/logger.js";
import { parseMediaType } from "../../infra/media-type.js";
import type { ImageBlock } from "../../models/messages.js";
import type { SavedFile, SavedMedia } from "../inbound/media-store.js";

/** As OpenClaw reads a chat's PDFs: up to 20 pages unless `files.pdf.maxPages` says otherwise. */
const INBOUND_PDF_MAX_PAGES = 20;

/**
 * The text of a message's documents for the agent, and the pages of its PDFs rendered as images,
 * as OpenClaw reads chat attachments: text files and PDFs, under
 * `gateway.http.endpoints.responses.files` (its allowedMimes, maxBytes, maxChars, timeoutMs and
 * pdf settings). Another type keeps only its `[media attached: …]` line; a file that cannot be read
 * is said to be so, and the message goes on.
 */
export async function readDocuments(
  documents: readonly SavedFile[],
  config: OpenClawConfig,
  logger: Logger,
  logFields: Record<string, unknown>,
): Promise<{ text?: string; images: ImageBlock[] }> {
  const files = config.gateway.http.endpoints.responses.files;
  const read: ReadFile[] = [];
  const unread: string[] = [];
  const allowed = files?.allowedMimes?.map((type) => type.toLowerCase());
  const pdf = { limits: pdfLimitsFrom(files?.pdf, INBOUND_PDF_MAX_PAGES), timeoutMs: files?.timeoutMs ?? 10_000, timeoutKey: "gateway.http.endpoints.responses.files.timeoutMs" };
  for (const document of documents) {
    const { mimeType, charset } = documentType(document);
    if (!mimeType || !READABLE_FILE_TYPES.includes(mimeType) || (allowed && !allowed.includes(mimeType))) continue;
    // The sender's name for the file: it must not break out of its line.
    const name = (document.name ?? path.basename(document.path)).replace(/["\n\r]/g, "");
    if (files?.maxBytes !== undefined && document.bytes > files.maxBytes) {
      unread.push(`[file "${name}" not read: over gateway.http.endpoints.responses.files.maxBytes]`);
      continue;
    }
    try {
      const bytes = fs.readFileSync(document.path);
      read.push({ name, mimeType, ...(await readUserFile(bytes, { mimeType, ...(charset ? { charset } : {}) }, pdf)) });
    } catch (err) {
      if (!(err instanceof FileReadError)) throw err;
      logger.warn({ ...logFields, file: document.path, err: err.message }, "inbound document not read");
      unread.push(`[file "${name}" not read: ${err.message}]`);
    }
  }
  const images: ImageBlock[] = read.flatMap((file) =>
    (file.images ?? []).map((image) => ({ type: "image" as const, data: image.bytes.toString("base64"), mimeType: image.mimeType })),
  );
  const text = [...(read.length > 0 ? [filesPrompt(read, files?.maxChars ?? 60_000)] : []), ...unread].join("\n");
  return { ...(text ? { text } : {}), images };
}

/**
 * A saved message's file lines and images with its documents read in: the text of those read
 * after the lines, their rendered pages after the message's own images.
 */
export async function withDocumentsRead(
  saved: Pick<SavedMedia, "lines" | "images" | "documents">,
  config: OpenClawConfig,
  logger: Logger,
  logFields: Record<string, unknown>,
): Promise<{ lines: string[]; images: ImageBlock[] }> {
  if (saved.documents.length === 0) return { lines: saved.lines, images: saved.images };
  const documents = await readDocuments(saved.documents, config, logger, logFields);
  return {
    lines: documents.text ? [...saved.lines, documents.text] : saved.lines,
    images: documents.images.length > 0 ? [...saved.images, ...documents.images] : saved.images,
  };
}

/** The platform's type (and charset) for a document, or what its first bytes and name say when that is generic (fileType). */
function documentType(document: SavedFile): { mimeType: string; charset?: string } {
  const head = Buffer.alloc(Math.min(document.bytes, FILE_TYPE_SAMPLE_BYTES));
  const fd = fs.openSync(document.path, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  return fileType(head, parseMediaType(document.mimeType ?? ""), document.name ?? document.path);
}

import { parseMediaType } from "../../../infra/media-type.js";
import { READABLE_FILE_TYPES } from "../../../config/http-file-types.js";
import { base64Payload } from "../../../infra/base64.js";
import { formatByteSize } from "../../../infra/byte-size.js";
import type { FileSource } from "./file-parts.js";
import { fileType } from "../../../agents/media/file-type.js";
import { readUserFile } from "../../../agents/media/user-file.js";
import { FileReadError } from "../../../agents/media/file-read-error.js";
import type { ReadFile } from "../../../agents/media/file-prompt.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { pdfLimitsFrom, type PdfLimits } from "../../../agents/media/pdf-extract.js";
import { fetchUrlPart, GUARDED_NETWORK, type UrlFetchLimits, type UrlNetwork, type UrlPartConfig, urlPartLimitsFrom } from "./url-part-fetch.js";

/** What `gateway.http.endpoints.<endpoint>.files` allows, defaults filled (see fileLimitsFrom). */
export interface FileLimits extends UrlFetchLimits {
  allowedMimes: readonly string[];
  /** Characters of each file's text put in the prompt; the rest is cut, and the prompt says so. */
  maxChars: number;
  pdf: PdfLimits;
}

interface FilesConfig extends UrlPartConfig {
  maxChars?: number;
  pdf?: { maxPages?: number; maxPixels?: number; minTextChars?: number };
}

/** OpenClaw's defaults: file URLs fetched by the Responses API (Chat Completions parts carry none), 5 MB, 60,000 characters, a PDF's first 4 pages. */
export function fileLimitsFrom(config: FilesConfig | undefined, endpoint: "chatCompletions" | "responses"): FileLimits {
  return {
    ...urlPartLimitsFrom(config, endpoint, "files", { maxBytes: 5 * 1024 * 1024, allowedMimes: READABLE_FILE_TYPES }),
    maxChars: config?.maxChars ?? 60_000,
    pdf: pdfLimitsFrom(config?.pdf, 4),
  };
}

/**
 * Decodes and fetches a request's files, in order, under `limits` (URLs as fetchUrlPart fetches
 * them); a PDF is read by extractPdf. A file of a type not allowed or not readable, too large, not
 * text in its charset, or a PDF that cannot be read refuses the request (400 naming the part).
 */
export async function loadFiles(sources: readonly FileSource[], limits: FileLimits, network: UrlNetwork = GUARDED_NETWORK): Promise<ReadFile[]> {
  const files: ReadFile[] = [];
  for (const [i, source] of sources.entries()) {
    const { param } = source;
    let declared: { mimeType: string; charset?: string };
    let bytes: Buffer;
    if (source.kind === "data") {
      declared = source;
      const payload = base64Payload(source.base64);
      if (!payload) throw new OpenAiRequestError(`${param}: the file data is not valid base64.`, param);
      if (payload.size > limits.maxBytes)
        throw new OpenAiRequestError(`${param}: the file is ${formatByteSize(payload.size)}, over ${formatByteSize(limits.maxBytes)} (${limits.configKey}.maxBytes).`, param);
      bytes = Buffer.from(payload.text, "base64");
    } else {
      const answer = await fetchUrlPart(source, "file", limits, network, "text/*, application/json, application/pdf");
      declared = parseMediaType(answer.contentType);
      bytes = answer.bytes;
    }
    const name = source.fileName ?? urlName(source) ?? `file ${i + 1}`;
    // A generic or missing type is told from the bytes and the name; a PDF always by its signature.
    const type = fileType(bytes, declared, source.fileName ?? urlName(source));
    checkType(type.mimeType, param, limits);
    try {
      const pdf = { limits: limits.pdf, timeoutMs: limits.timeoutMs, timeoutKey: `${limits.configKey}.timeoutMs` };
      files.push({ name, mimeType: type.mimeType, ...(await readUserFile(bytes, type, pdf)) });
    } catch (err) {
      if (err instanceof FileReadError) throw new OpenAiRequestError(`${param}: ${err.message}.`, param);
      throw err;
    }
  }
  return files;
}

function checkType(mimeType: string, param: string, limits: FileLimits): void {
  const shown = mimeType || "unknown";
  if (!READABLE_FILE_TYPES.includes(mimeType)) throw new OpenAiRequestError(`${param}: files of type '${shown}' are not read (${READABLE_FILE_TYPES.join(", ")}).`, param);
  if (!limits.allowedMimes.includes(mimeType))
    throw new OpenAiRequestError(`${param}: files of type '${shown}' are not accepted (${limits.allowedMimes.join(", ")}; ${limits.configKey}.allowedMimes).`, param);
}

/** A fetched file without a name is called by its URL's last path segment. */
function urlName(source: FileSource): string | undefined {
  if (source.kind !== "url") return undefined;
  const last = source.url.pathname.split("/").pop();
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

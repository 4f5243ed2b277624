import { parseMediaType } from "../../../infra/media-type.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { isRecord } from "./request-fields.js";
import { parseDataUri } from "./data-uri.js";
import { httpPartUrl } from "./url-part-fetch.js";

/**
 * A file a request carries: inline (Chat Completions `file` parts, Responses `input_file` parts)
 * or, in a Responses request, by URL.
 */
export type FileSource =
  | { kind: "data"; mimeType: string; charset?: string; base64: string; fileName?: string; param: string }
  | { kind: "url"; url: URL; fileName?: string; param: string };

/** The most file parts the latest message may carry. */
export const MAX_FILE_PARTS = 8;

/** Chat Completions: `{type: "file", file: {file_data: "data:<type>;base64,…", filename?}}`. */
export function chatFilePart(part: Record<string, unknown>, param: string): FileSource {
  const file = part.file;
  if (!isRecord(file)) throw new OpenAiRequestError(`${param}.file must be an object with file_data.`, `${param}.file`);
  if (typeof file.file_id === "string" && file.file_data === undefined) throw fileIdRefused(`${param}.file.file_id`);
  if (typeof file.file_data !== "string") throw new OpenAiRequestError(`${param}.file.file_data must be a data: URI.`, `${param}.file.file_data`);
  return fromDataUri(file.file_data, typeof file.filename === "string" ? file.filename : undefined, `${param}.file.file_data`);
}

/**
 * Responses: OpenAI's `{type: "input_file", file_data: "data:…" | file_url, filename?}`, or
 * OpenResponses' `{type: "input_file", source: {type: "base64", media_type, data, filename?} |
 * {type: "url", url}}`.
 */
export function responsesFilePart(part: Record<string, unknown>, param: string): FileSource {
  const fileName = typeof part.filename === "string" ? part.filename : undefined;
  const named = (name: unknown) => (typeof name === "string" ? { fileName: name } : fileName ? { fileName } : {});
  if (typeof part.file_data === "string") return fromDataUri(part.file_data, fileName, `${param}.file_data`);
  if (typeof part.file_url === "string") return { kind: "url", url: httpPartUrl(part.file_url, `${param}.file_url`, "file_data"), ...named(undefined), param: `${param}.file_url` };
  const source = part.source;
  if (isRecord(source) && source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string") {
    return { kind: "data", ...parseMediaType(source.media_type), base64: source.data, ...named(source.filename), param: `${param}.source.data` };
  }
  if (isRecord(source) && source.type === "url" && typeof source.url === "string") {
    return { kind: "url", url: httpPartUrl(source.url, `${param}.source.url`, "a base64 source"), ...named(source.filename), param: `${param}.source.url` };
  }
  if (typeof part.file_id === "string") throw fileIdRefused(`${param}.file_id`);
  throw new OpenAiRequestError(`${param} needs file_data (a data: URI), file_url, or a source of type base64 or url.`, param);
}

function fileIdRefused(param: string): OpenAiRequestError {
  return new OpenAiRequestError(`${param}: file ids are not supported (this gateway stores no uploaded files); send the file inline.`, param);
}

function fromDataUri(value: string, fileName: string | undefined, param: string): FileSource {
  const data = parseDataUri(value);
  if (data === undefined || data === "not-base64") throw new OpenAiRequestError(`${param} must be a base64 data: URI (data:<type>;base64,…).`, param);
  return { kind: "data", ...data, ...(fileName ? { fileName } : {}), param };
}

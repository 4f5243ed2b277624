import { isRecord } from "./request-fields.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { parseDataUri } from "./data-uri.js";
import { httpPartUrl } from "./url-part-fetch.js";

/** Where one image of a request comes from: inline bytes (a `data:` URI, base64) or a URL to fetch. */
export type ImageSource = { kind: "data"; mimeType: string; base64: string; param: string } | { kind: "url"; url: URL; param: string };

/** The most image parts the latest user message may carry, as OpenClaw takes them. */
export const MAX_IMAGE_PARTS = 8;

/** Chat Completions: `{type: "image_url", image_url: {url, detail?}}` (a bare string `image_url` is taken too). */
export function chatImagePart(part: Record<string, unknown>, param: string): ImageSource {
  const field = part.image_url;
  const url = typeof field === "string" ? field : isRecord(field) ? field.url : undefined;
  if (typeof url !== "string") throw new OpenAiRequestError(`${param}.image_url.url must be a string.`, `${param}.image_url.url`);
  return sourceOfUrl(url, `${param}.image_url.url`);
}

/**
 * Responses: OpenAI's `{type: "input_image", image_url}` (a URL or a `data:` URI), or
 * OpenResponses' `{type: "input_image", source: {type: "url", url} | {type: "base64", media_type, data}}`.
 */
export function responsesImagePart(part: Record<string, unknown>, param: string): ImageSource {
  if (typeof part.image_url === "string") return sourceOfUrl(part.image_url, `${param}.image_url`);
  const source = part.source;
  if (isRecord(source) && source.type === "url" && typeof source.url === "string") return sourceOfUrl(source.url, `${param}.source.url`);
  if (isRecord(source) && source.type === "base64") {
    if (typeof source.media_type !== "string" || typeof source.data !== "string") {
      throw new OpenAiRequestError(`${param}.source needs a string media_type and base64 data.`, `${param}.source`);
    }
    return { kind: "data", mimeType: source.media_type.trim().toLowerCase(), base64: source.data, param: `${param}.source.data` };
  }
  if (typeof part.file_id === "string")
    throw new OpenAiRequestError(`${param}: file_id images are not supported (this gateway stores no uploaded files); send a URL or a data: URI.`, `${param}.file_id`);
  throw new OpenAiRequestError(`${param} needs an image_url (a URL or a data: URI) or a source of type url or base64.`, param);
}

/** `data:<mime>;base64,<data>` or an `http(s)` URL; anything else is the client's mistake, told as such. */
function sourceOfUrl(value: string, param: string): ImageSource {
  if (/^data:/i.test(value)) {
    const data = parseDataUri(value);
    if (data === undefined) throw new OpenAiRequestError(`${param} is not a valid data: URI.`, param);
    if (data === "not-base64") throw new OpenAiRequestError(`${param}: a data: URI image must be base64 (data:<type>;base64,…).`, param);
    return { kind: "data", mimeType: data.mimeType, base64: data.base64, param };
  }
  return { kind: "url", url: httpPartUrl(value, param, "a data: URI"), param };
}

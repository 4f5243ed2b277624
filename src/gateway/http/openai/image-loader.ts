import { parseMediaType } from "../../../infra/media-type.js";
import { base64Payload } from "../../../infra/base64.js";
import { formatByteSize } from "../../../infra/byte-size.js";
import { CLIENT_IMAGE_TYPES } from "../../client-media.js";
import type { ImageSource } from "./image-sources.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { fetchUrlPart, GUARDED_NETWORK, type UrlFetchLimits, type UrlNetwork, type UrlPartConfig, urlPartLimitsFrom } from "./url-part-fetch.js";

/** An image of the request, fetched or decoded and checked: ready to be saved and shown to the model. */
export interface LoadedImage {
  mimeType: string;
  bytes: Buffer;
}

/** What `gateway.http.endpoints.<endpoint>.images` allows, defaults filled (see imageLimitsFrom). */
export interface ImageLimits extends UrlFetchLimits {
  allowedMimes: readonly string[];
}

/** All images of one request together, decoded, as OpenClaw caps them. */
export const MAX_TOTAL_IMAGE_BYTES = 20 * 1024 * 1024;

/** Chat Completions fetch no URLs unless told to; the Responses API does (OpenClaw's defaults). */
export function imageLimitsFrom(config: UrlPartConfig | undefined, endpoint: "chatCompletions" | "responses"): ImageLimits {
  return urlPartLimitsFrom(config, endpoint, "images", { maxBytes: 10 * 1024 * 1024, allowedMimes: CLIENT_IMAGE_TYPES });
}

/**
 * Decodes and fetches a request's images, in order, under `limits` (URLs as fetchUrlPart fetches
 * them); a problem with any of them is the client's and refuses the request (400 naming the part).
 */
export async function loadImages(sources: readonly ImageSource[], limits: ImageLimits, network: UrlNetwork = GUARDED_NETWORK): Promise<LoadedImage[]> {
  const images: LoadedImage[] = [];
  let total = 0;
  for (const source of sources) {
    const image = source.kind === "data" ? decodeDataImage(source, limits) : await fetchImage(source, limits, network);
    total += image.bytes.length;
    if (total > MAX_TOTAL_IMAGE_BYTES) throw new OpenAiRequestError(`The request's images come to more than ${formatByteSize(MAX_TOTAL_IMAGE_BYTES)} decoded.`, source.param);
    images.push(image);
  }
  return images;
}

function decodeDataImage(source: Extract<ImageSource, { kind: "data" }>, limits: ImageLimits): LoadedImage {
  checkMime(source.mimeType, source.param, limits);
  const payload = base64Payload(source.base64);
  if (!payload) throw new OpenAiRequestError(`${source.param}: the image data is not valid base64.`, source.param);
  checkSize(payload.size, source.param, limits);
  return { mimeType: source.mimeType, bytes: Buffer.from(payload.text, "base64") };
}

function checkMime(mimeType: string, param: string, limits: ImageLimits): void {
  if (!limits.allowedMimes.includes(mimeType)) {
    throw new OpenAiRequestError(`${param}: image type '${mimeType || "unknown"}' is not accepted (${limits.allowedMimes.join(", ")}; ${limits.configKey}.allowedMimes).`, param);
  }
}

function checkSize(size: number, param: string, limits: ImageLimits): void {
  if (size > limits.maxBytes)
    throw new OpenAiRequestError(`${param}: the image is ${formatByteSize(size)}, over ${formatByteSize(limits.maxBytes)} (${limits.configKey}.maxBytes).`, param);
}

async function fetchImage(source: Extract<ImageSource, { kind: "url" }>, limits: ImageLimits, network: UrlNetwork): Promise<LoadedImage> {
  const answer = await fetchUrlPart(source, "image", limits, network, "image/*");
  const { mimeType } = parseMediaType(answer.contentType);
  checkMime(mimeType, source.param, limits);
  return { mimeType, bytes: answer.bytes };
}

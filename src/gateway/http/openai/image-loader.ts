import http from "node:http";
import https from "node:https";
import net, { type LookupFunction } from "node:net";
import { guardedLookup, isBlockedAddress, PrivateAddressError } from "../../../agents/tools/network-guard.js";
import { base64Payload } from "../../../infra/base64.js";
import { formatByteSize } from "../../../infra/byte-size.js";
import { CLIENT_IMAGE_TYPES } from "../../client-media.js";
import type { ImageSource } from "./image-sources.js";
import { OpenAiRequestError } from "./openai-errors.js";

/** An image of the request, fetched or decoded and checked: ready to be saved and shown to the model. */
export interface LoadedImage {
  mimeType: string;
  bytes: Buffer;
}

/** What `gateway.http.endpoints.<endpoint>.images` allows, defaults filled (see imageLimitsFrom). */
export interface ImageLimits {
  /** The config key the settings live under, named in refusals. */
  configKey: string;
  allowUrl: boolean;
  urlAllowlist: readonly string[];
  allowedMimes: readonly string[];
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
}

/** All images of one request together, decoded, as OpenClaw caps them. */
export const MAX_TOTAL_IMAGE_BYTES = 20 * 1024 * 1024;

interface ImagesConfig {
  allowUrl?: boolean;
  urlAllowlist?: string[];
  allowedMimes?: string[];
  maxBytes?: number;
  maxRedirects?: number;
  timeoutMs?: number;
}

/** Chat Completions fetch no URLs unless told to; the Responses API does (OpenClaw's defaults). */
export function imageLimitsFrom(config: ImagesConfig | undefined, endpoint: "chatCompletions" | "responses"): ImageLimits {
  return {
    configKey: `gateway.http.endpoints.${endpoint}.images`,
    allowUrl: config?.allowUrl ?? endpoint === "responses",
    urlAllowlist: config?.urlAllowlist ?? [],
    allowedMimes: (config?.allowedMimes ?? CLIENT_IMAGE_TYPES).map((m) => m.toLowerCase()),
    maxBytes: config?.maxBytes ?? 10 * 1024 * 1024,
    maxRedirects: config?.maxRedirects ?? 3,
    timeoutMs: config?.timeoutMs ?? 10_000,
  };
}

/**
 * Decodes and fetches a request's images, in order, under `limits`; a problem with any of them is
 * the client's and refuses the request (400 naming the part). URLs are fetched only when allowed,
 * only from allowlisted hosts when a list is set, and never from a private, loopback or link-local
 * address or one of this host's own (checked at connect time for names, before it for address
 * literals, redirects included). Tests hand a `network` that sends their host names to a loopback
 * server.
 */
export async function loadImages(sources: readonly ImageSource[], limits: ImageLimits, network: ImageNetwork = GUARDED): Promise<LoadedImage[]> {
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

/** How image URLs are reached: names resolved through `lookup`, address literals checked by `blocks`. */
export interface ImageNetwork {
  lookup: LookupFunction;
  blocks(address: string): boolean;
}

const GUARDED: ImageNetwork = { lookup: guardedLookup, blocks: isBlockedAddress };

async function fetchImage(source: Extract<ImageSource, { kind: "url" }>, limits: ImageLimits, network: ImageNetwork): Promise<LoadedImage> {
  const { param } = source;
  if (!limits.allowUrl) throw new OpenAiRequestError(`${param}: image URLs are not fetched here; send the image as a data: URI, or set ${limits.configKey}.allowUrl.`, param);
  let url = source.url;
  for (let redirects = 0; ; redirects++) {
    checkHost(url, param, limits);
    // Node does not look up an address literal: it is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal) && network.blocks(literal)) {
      throw new OpenAiRequestError(`${param}: the image at ${url.host} is not fetched: ${literal} is a private, loopback or link-local address or one of this host's own.`, param);
    }
    const answer = await get(url, limits, network.lookup).catch((err: unknown) => {
      const why = err instanceof PrivateAddressError ? err.message : err instanceof Error ? err.message : String(err);
      throw new OpenAiRequestError(`${param}: the image at ${url.host} could not be fetched: ${why}.`, param);
    });
    if (answer.kind === "redirect") {
      if (redirects >= limits.maxRedirects)
        throw new OpenAiRequestError(`${param}: the image URL redirected more than ${limits.maxRedirects} times (${limits.configKey}.maxRedirects).`, param);
      const next = new URL(answer.location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:") throw new OpenAiRequestError(`${param}: the image URL redirected to ${next.protocol}, not http(s).`, param);
      url = next;
      continue;
    }
    if (answer.kind === "too-large")
      throw new OpenAiRequestError(`${param}: the image at ${url.host} is over ${formatByteSize(limits.maxBytes)} (${limits.configKey}.maxBytes).`, param);
    if (answer.kind !== "image") throw new OpenAiRequestError(`${param}: the image at ${url.host} answered HTTP ${answer.status}.`, param);
    checkMime(answer.mimeType, param, limits);
    return { mimeType: answer.mimeType, bytes: answer.bytes };
  }
}

/** `urlAllowlist` entries are host names, or `*.domain` for its subdomains. */
function checkHost(url: URL, param: string, limits: ImageLimits): void {
  if (limits.urlAllowlist.length === 0) return;
  const host = url.hostname.toLowerCase();
  const allowed = limits.urlAllowlist.some((entry) => {
    const pattern = entry.trim().toLowerCase();
    return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
  if (!allowed) throw new OpenAiRequestError(`${param}: ${host} is not in ${limits.configKey}.urlAllowlist.`, param);
}

type Answer =
  | { kind: "image"; mimeType: string; bytes: Buffer }
  | { kind: "redirect"; location: string }
  | { kind: "failed"; status: number }
  | { kind: "too-large"; size: number };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One GET on a fresh connection (no pooled socket skips the address check), given up after
 * `timeoutMs` in all and cut once over `maxBytes`.
 */
function get(url: URL, limits: ImageLimits, lookup: LookupFunction): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.get(url, { agent: false, lookup, headers: { accept: "image/*" } }, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.resume();
        return resolve({ kind: "redirect", location });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return resolve({ kind: "failed", status });
      }
      const mimeType = String(response.headers["content-type"] ?? "")
        .split(";")[0]!
        .trim()
        .toLowerCase();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          response.destroy();
          return resolve({ kind: "too-large", size });
        }
        chunks.push(chunk);
      });
      response.on("end", () => resolve({ kind: "image", mimeType, bytes: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no complete answer within ${limits.timeoutMs} ms (${limits.configKey}.timeoutMs)`)), limits.timeoutMs);
    request.on("close", () => clearTimeout(deadline));
    request.on("error", reject);
  });
}

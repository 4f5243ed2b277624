import http from "node:http";
import https from "node:https";
import net, { type LookupFunction } from "node:net";
import { guardedLookup, isBlockedAddress, PrivateAddressError } from "../../../agents/tools/network-guard.js";
import { formatByteSize } from "../../../infra/byte-size.js";
import { OpenAiRequestError } from "./openai-errors.js";

/** How far a request's URL-sourced parts (`gateway.http.endpoints.<endpoint>.images` or `.files`) may be fetched. */
export interface UrlFetchLimits {
  /** The config key the settings live under, named in refusals. */
  configKey: string;
  allowUrl: boolean;
  urlAllowlist: readonly string[];
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
}

/** The URL settings of a part kind as written in the config (any may be unset). */
export interface UrlPartConfig {
  allowUrl?: boolean;
  urlAllowlist?: string[];
  allowedMimes?: string[];
  maxBytes?: number;
  maxRedirects?: number;
  timeoutMs?: number;
}

/**
 * `gateway.http.endpoints.<endpoint>.<kind>` with OpenClaw's defaults filled: URLs fetched by the
 * Responses API only, 3 redirects, 10 seconds; `maxBytes` and the types are the kind's own.
 */
export function urlPartLimitsFrom(
  config: UrlPartConfig | undefined,
  endpoint: "chatCompletions" | "responses",
  kind: "images" | "files",
  defaults: { maxBytes: number; allowedMimes: readonly string[] },
): UrlFetchLimits & { allowedMimes: readonly string[] } {
  return {
    configKey: `gateway.http.endpoints.${endpoint}.${kind}`,
    allowUrl: config?.allowUrl ?? endpoint === "responses",
    urlAllowlist: config?.urlAllowlist ?? [],
    allowedMimes: (config?.allowedMimes ?? defaults.allowedMimes).map((m) => m.toLowerCase()),
    maxBytes: config?.maxBytes ?? defaults.maxBytes,
    maxRedirects: config?.maxRedirects ?? 3,
    timeoutMs: config?.timeoutMs ?? 10_000,
  };
}

/** How part URLs are reached: names resolved through `lookup`, address literals checked by `blocks`. */
export interface UrlNetwork {
  lookup: LookupFunction;
  blocks(address: string): boolean;
}

export const GUARDED_NETWORK: UrlNetwork = { lookup: guardedLookup, blocks: isBlockedAddress };

/** What a part's URL answered: its `content-type` header as sent and the body. */
export interface FetchedPart {
  contentType: string;
  bytes: Buffer;
}

/** An `http(s)` URL without credentials; anything else is the client's mistake, told as such. */
export function httpPartUrl(value: string, param: string, alternative: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OpenAiRequestError(`${param} must be an http(s) URL or ${alternative}.`, param);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OpenAiRequestError(`${param} must be an http(s) URL or ${alternative}, not ${url.protocol}`, param);
  if (url.username || url.password) throw new OpenAiRequestError(`${param} must not carry credentials.`, param);
  return url;
}

/**
 * Fetches one image or file part's URL under `limits`; every problem is the client's and refuses
 * the request (400 naming the part). Only when allowed, only from allowlisted hosts when a list is
 * set, and never from a private, loopback or link-local address or one of this host's own (checked
 * at connect time for names, before it for address literals, on every redirect). Tests hand a
 * `network` that sends their host names to a loopback server.
 */
export async function fetchUrlPart(source: { url: URL; param: string }, what: "image" | "file", limits: UrlFetchLimits, network: UrlNetwork, accept: string): Promise<FetchedPart> {
  const { param } = source;
  if (!limits.allowUrl) {
    const inline = what === "image" ? "send the image as a data: URI" : "send the file inline (file_data)";
    throw new OpenAiRequestError(`${param}: ${what} URLs are not fetched here; ${inline}, or set ${limits.configKey}.allowUrl.`, param);
  }
  let url = source.url;
  for (let redirects = 0; ; redirects++) {
    checkHost(url, param, limits);
    // Node does not look up an address literal: it is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal) && network.blocks(literal)) {
      throw new OpenAiRequestError(
        `${param}: the ${what} at ${url.host} is not fetched: ${literal} is a private, loopback or link-local address or one of this host's own.`,
        param,
      );
    }
    const answer = await get(url, limits, network.lookup, accept).catch((err: unknown) => {
      const why = err instanceof PrivateAddressError ? err.message : err instanceof Error ? err.message : String(err);
      throw new OpenAiRequestError(`${param}: the ${what} at ${url.host} could not be fetched: ${why}.`, param);
    });
    if (answer.kind === "redirect") {
      if (redirects >= limits.maxRedirects)
        throw new OpenAiRequestError(`${param}: the ${what} URL redirected more than ${limits.maxRedirects} times (${limits.configKey}.maxRedirects).`, param);
      const next = new URL(answer.location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:") throw new OpenAiRequestError(`${param}: the ${what} URL redirected to ${next.protocol}, not http(s).`, param);
      url = next;
      continue;
    }
    if (answer.kind === "too-large")
      throw new OpenAiRequestError(`${param}: the ${what} at ${url.host} is over ${formatByteSize(limits.maxBytes)} (${limits.configKey}.maxBytes).`, param);
    if (answer.kind === "failed") throw new OpenAiRequestError(`${param}: the ${what} at ${url.host} answered HTTP ${answer.status}.`, param);
    return { contentType: answer.contentType, bytes: answer.bytes };
  }
}

/** `urlAllowlist` entries are host names, or `*.domain` for its subdomains. */
function checkHost(url: URL, param: string, limits: UrlFetchLimits): void {
  if (limits.urlAllowlist.length === 0) return;
  const host = url.hostname.toLowerCase();
  const allowed = limits.urlAllowlist.some((entry) => {
    const pattern = entry.trim().toLowerCase();
    return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
  if (!allowed) throw new OpenAiRequestError(`${param}: ${host} is not in ${limits.configKey}.urlAllowlist.`, param);
}

type Answer =
  | { kind: "body"; contentType: string; bytes: Buffer }
  | { kind: "redirect"; location: string }
  | { kind: "failed"; status: number }
  | { kind: "too-large"; size: number };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One GET on a fresh connection (no pooled socket skips the address check), given up after
 * `timeoutMs` in all and cut once over `maxBytes`.
 */
function get(url: URL, limits: UrlFetchLimits, lookup: LookupFunction, accept: string): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.get(url, { agent: false, lookup, headers: { accept } }, (response) => {
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
      response.on("end", () => resolve({ kind: "body", contentType: String(response.headers["content-type"] ?? ""), bytes: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no complete answer within ${limits.timeoutMs} ms (${limits.configKey}.timeoutMs)`)), limits.timeoutMs);
    request.on("close", () => clearTimeout(deadline));
    request.on("error", reject);
  });
}

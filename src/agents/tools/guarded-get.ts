import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type { ToolResult } from "../types.js";
import { guardedLookup, isBlockedAddress, PrivateAddressError } from "./network-guard.js";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface GuardedGetOptions {
  /** `true` lets the request reach loopback, private and link-local addresses (`services.webFetchAllowPrivate`). */
  allowPrivate: boolean;
  /** Bytes downloaded (after decompression) before the body is cut. */
  maxBytes: number;
  userAgent: string;
  accept: string;
  timeoutMs: number;
  maxRedirects: number;
}

export interface FetchedResponse {
  url: URL;
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body went over the byte cap and was cut. */
  cut: boolean;
}

/**
 * GET over http(s) for a tool (web_fetch, view_image). Private, loopback and link-local addresses
 * are refused unless `allowPrivate`; every redirect is checked again, and the address is checked
 * when the connection is made, so DNS tricks do not get around it. The timeout covers the
 * redirects and the body. A refusal or failure comes back as the tool error that names it.
 */
export async function guardedGet(start: URL, signal: AbortSignal, options: GuardedGetOptions): Promise<{ response: FetchedResponse } | { failure: ToolResult }> {
  let url = start;
  // One controller for both the caller's abort and our own timeout, told apart by `reason`.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort("aborted");
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort("timeout"), options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const refusal = checkTarget(url, options.allowPrivate);
      if (refusal) return { failure: refusal };
      const response = await httpGet(url, controller.signal, options);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || !location) return { response };
      if (redirects >= options.maxRedirects) return { failure: toolError(TOOL_ERRORS.tooManyRedirects(start.href, options.maxRedirects, location)) };
      try {
        url = new URL(location, url);
      } catch {
        return { failure: toolError(TOOL_ERRORS.invalidRedirect(url.href, location.slice(0, 200))) };
      }
    }
  } catch (error) {
    return { failure: fetchFailure(error, url, controller.signal) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

function checkTarget(url: URL, allowPrivate: boolean): ToolResult | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return toolError(TOOL_ERRORS.urlSchemeNotAllowed(url.protocol.replace(/:$/, ""), url.href.slice(0, 200)));
  }
  // Host names are checked when they resolve (guardedLookup); literal addresses never resolve.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && net.isIP(host) && isBlockedAddress(host)) return privateAddressRefusal(url.href, host);
  return undefined;
}

function httpGet(url: URL, signal: AbortSignal, how: Pick<GuardedGetOptions, "allowPrivate" | "maxBytes" | "userAgent" | "accept">): Promise<FetchedResponse> {
  const { allowPrivate, maxBytes, userAgent, accept } = how;
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "GET",
        // A fresh connection per request: no pooled socket skips the address check.
        agent: false,
        signal,
        headers: {
          "user-agent": userAgent,
          accept,
          "accept-encoding": "gzip, deflate, br",
        },
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        const base = { url, status: response.statusCode ?? 0, statusText: response.statusMessage ?? "", headers: response.headers };
        if (REDIRECT_STATUSES.has(base.status)) {
          response.destroy();
          resolve({ ...base, body: Buffer.alloc(0), cut: false });
          return;
        }
        const body = decompressed(response);
        const chunks: Buffer[] = [];
        let size = 0;
        body.on("data", (chunk: Buffer) => {
          const room = maxBytes - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          // Over the cap: keep what fits and stop downloading (this also bounds zip bombs).
          chunks.push(chunk.subarray(0, room));
          body.removeAllListeners("data");
          body.on("error", () => {});
          response.destroy();
          if (body !== response) body.destroy();
          resolve({ ...base, body: Buffer.concat(chunks), cut: true });
        });
        body.on("end", () => resolve({ ...base, body: Buffer.concat(chunks), cut: false }));
        body.on("error", reject);
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

function decompressed(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function fetchFailure(error: unknown, url: URL, signal: AbortSignal): ToolResult {
  if (error instanceof PrivateAddressError || (error as { code?: string })?.code === "EPRIVATEADDRESS") {
    const refused = error as PrivateAddressError;
    return privateAddressRefusal(url.href, refused.address ?? url.hostname);
  }
  if (signal.aborted) {
    return signal.reason === "timeout" ? toolError(TOOL_ERRORS.fetchTimeout(url.href)) : toolError(TOOL_ERRORS.fetchAborted(url.href));
  }
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return toolError(TOOL_ERRORS.dnsFailed(url.hostname));
  }
  return toolError(TOOL_ERRORS.fetchFailed(url.href, (error as Error)?.message ?? String(error)));
}

function privateAddressRefusal(href: string, address: string): ToolResult {
  return toolError(TOOL_ERRORS.privateAddressBlocked(href.slice(0, 200), address));
}

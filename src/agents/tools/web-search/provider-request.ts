import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { isBlockedAddress } from "../network-guard.js";

/** A search provider answers with a page (JSON, or DuckDuckGo's HTML), not a download: anything longer is refused. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** A provider request that failed: `status` when the provider answered with an HTTP error. */
export class ProviderRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** GETs `url` from a configured search provider and parses its JSON (requestProviderText has the rules). */
export async function getProviderJson(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  return parseJson(await requestProviderText(url, { headers: { accept: "application/json", ...headers } }, signal));
}

/** POSTs `body` as JSON to a configured search provider and parses its JSON answer. */
export async function postProviderJson(url: URL, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<unknown> {
  const payload = JSON.stringify(body);
  return parseJson(
    await requestProviderText(url, { method: "POST", headers: { accept: "application/json", "content-type": "application/json", ...headers }, body: payload }, signal),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderRequestError("the answer was not JSON");
  }
}

/**
 * One request to a configured search provider; resolves with the 2xx answer's text. `https://` may
 * go anywhere the operator pointed it; `http://` only to a loopback or private host (a self-hosted
 * instance or a local proxy), checked on the address the connection is made to, so a public host
 * is never asked in clear text. Rejects with ProviderRequestError; never includes the request
 * headers or body (they carry the API key) in a message.
 */
export function requestProviderText(url: URL, options: { method?: "GET" | "POST"; headers: Record<string, string>; body?: string }, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    if (url.protocol === "http:" && net.isIP(literal) && !isBlockedAddress(literal)) {
      reject(clearTextRefusal(url));
      return;
    }
    const request = client.request(
      url,
      {
        method: options.method ?? "GET",
        signal,
        headers: { ...options.headers, ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}) },
        ...(url.protocol === "http:" ? { lookup: privateOnlyLookup(url) } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            response.destroy();
            reject(new ProviderRequestError(`the answer was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("error", (error) => reject(new ProviderRequestError(error.message)));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            reject(new ProviderRequestError(`HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}`, status));
            return;
          }
          resolve(Buffer.concat(chunks).toString("utf8"));
        });
      },
    );
    request.on("error", (error) => reject(error instanceof ProviderRequestError ? error : new ProviderRequestError(describeNetworkError(error, url))));
    request.end(options.body);
  });
}

function privateOnlyLookup(url: URL) {
  return (hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isBlockedAddress(entry.address))) return callback(clearTextRefusal(url), "");
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function clearTextRefusal(url: URL): ProviderRequestError {
  return new ProviderRequestError(`${url.host} is a public host: http:// is only allowed to a loopback or private address; use https://`);
}

function describeNetworkError(error: Error, url: URL): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host ${url.hostname} could not be found`;
  if (code === "ECONNREFUSED") return `nothing is listening at ${url.host}`;
  return error.message;
}

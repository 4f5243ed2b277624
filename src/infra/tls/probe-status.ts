import { endWhenPinned } from "./pinned-tls.js";

/**
 * The HTTP status `url` answers a GET with, or undefined when it cannot be reached (refused, timed
 * out, or, for https with `tlsFingerprint`, a certificate that is not the pinned one). The body is
 * read and dropped. For the CLI's probes of its own gateway (readiness, an open endpoint).
 */
export function probeStatus(url: string, opts: { tlsFingerprint?: string; timeoutMs?: number } = {}): Promise<number | undefined> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const client = process.getBuiltinModule(secure ? "node:https" : "node:http");
  return new Promise((resolve) => {
    const request = client.request(target, {
      method: "GET",
      timeout: opts.timeoutMs ?? 5_000,
      ...(secure && opts.tlsFingerprint ? { rejectUnauthorized: false } : {}),
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
      response.on("error", () => resolve(undefined));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(undefined));
    if (secure && opts.tlsFingerprint) endWhenPinned(request, opts.tlsFingerprint);
    else request.end();
  });
}

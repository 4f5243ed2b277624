import http from "node:http";
import https from "node:https";

/**
 * True when a GET of `url` answers 2xx within `timeoutMs`. Any other status, a refused
 * connection or silence is "not ready"; the body is discarded. Rejects only when `signal` aborts.
 */
export function probeHealth(url: string, headers: Readonly<Record<string, string>> | undefined, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (healthy: boolean) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      clearTimeout(timer);
      request.destroy();
      resolve(healthy);
    };
    const onAbort = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(signal?.reason);
    };
    const request = client.get(target, { headers: { ...headers }, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      finish(status >= 200 && status < 300);
    });
    request.on("error", () => finish(false));
    const timer = setTimeout(() => finish(false), timeoutMs);
    timer.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

import { redactSecrets } from "../../models/index.js";
import { formatBytes } from "../tools/read.js";

/** A POST that got an answer, and the signal that ends reading it (the run's, or the deadline's). */
export type ProviderPost =
  | { ok: true; response: Response; signal: AbortSignal; timedOut: () => boolean }
  | { ok: false; kind: "timeout" }
  | { ok: false; kind: "unreachable"; reason: string };

/**
 * One POST to a media provider (image generation, speech) within `timeoutMs`, which also bounds
 * reading the answer through the returned signal. No answer is `timeout` or `unreachable` (the
 * host and the cause, every secret masked); the run's own signal ending it rejects, as the run
 * stopping must stop the tool, not be reported as the provider's failure.
 */
export async function postToProvider(
  url: string,
  init: { body: string | FormData; headers: Record<string, string> },
  options: { signal: AbortSignal; timeoutMs: number; secrets: readonly (string | undefined)[] },
): Promise<ProviderPost> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const response = await fetch(url, { method: "POST", body: init.body, headers: init.headers, signal });
    return { ok: true, response, signal, timedOut: () => timeout.aborted };
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (timeout.aborted) return { ok: false, kind: "timeout" };
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    const why = cause?.code ?? cause?.message;
    return { ok: false, kind: "unreachable", reason: `${new URL(url).host} could not be reached${why ? ` (${redactSecrets(why, options.secrets)})` : ""}` };
  }
}

/** The body, refused once it passes `max` bytes (a broken or hostile server cannot fill the memory). */
export async function readCapped(response: Response, max: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    // Leaving the loop cancels the rest of the body.
    if (size > max) throw new Error(`the answer was over ${formatBytes(max)}`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** A provider timeout as its error says it: `30 s`, or `200 ms` when not whole seconds. */
export function formatTimeout(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

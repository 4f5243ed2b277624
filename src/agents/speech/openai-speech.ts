import { redactSecrets } from "../../models/index.js";
import { formatTimeout, postToProvider, readCapped } from "../media/provider-post.js";
import type { SpeechFormat, SpeechHost } from "./speech-setup.js";

/** The largest audio one answer may bring (minutes of speech are a few MB). */
export const SPEECH_MAX_BYTES = 32 * 1024 * 1024;
/** Of a failed answer, only the start is read: enough for the error's JSON. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;
/** What the provider's own error message may add to a failure. */
const PROVIDER_MESSAGE_MAX_CHARS = 300;

/**
 * Why no audio came: `auth` (the key was refused), `timeout`, or `failed` (any other HTTP error,
 * an unreachable host, an empty or oversized answer). `reason` is safe to show: never the key.
 */
export interface SpeechFailure {
  kind: "auth" | "timeout" | "failed";
  reason: string;
}

export type SpeechOutcome = { ok: true; bytes: Buffer } | { ok: false; failure: SpeechFailure };

/**
 * OpenAI's `POST <baseUrl>/audio/speech` (OpenAI, DeepInfra, Kokoro and the other servers that
 * copy it): JSON `{model, voice, input, response_format}` plus the configured instructions, speed
 * and extra body fields; the answer is the audio itself. The timeout covers the whole answer; the
 * caller's signal stops it too (and rejects).
 */
export async function requestSpeech(host: SpeechHost, text: string, format: SpeechFormat, timeoutMs: number, signal: AbortSignal): Promise<SpeechOutcome> {
  const secrets = host.apiKey ? [host.apiKey] : [];
  const timedOut = (): SpeechOutcome => ({ ok: false, failure: { kind: "timeout", reason: `no audio within ${formatTimeout(timeoutMs)} (timeoutMs)` } });
  const url = `${host.baseUrl.replace(/\/+$/, "")}/audio/speech`;
  const body = {
    model: host.model,
    voice: host.voice,
    input: text,
    response_format: format,
    ...(host.instructions ? { instructions: host.instructions } : {}),
    ...(host.speed !== undefined ? { speed: host.speed } : {}),
    ...withoutPrototypeKeys(host.extraBody),
  };
  const headers = { "content-type": "application/json", ...(host.apiKey ? { authorization: `Bearer ${host.apiKey}` } : {}) };
  const posted = await postToProvider(url, { body: JSON.stringify(body), headers }, { signal, timeoutMs, secrets });
  if (!posted.ok) return posted.kind === "timeout" ? timedOut() : failed(posted.reason);
  try {
    if (!posted.response.ok) return { ok: false, failure: await httpFailure(posted.response, secrets) };
    // Read with a cap: a server that never stops sending cannot fill the gateway's memory.
    const bytes = await readCapped(posted.response, SPEECH_MAX_BYTES);
    if (bytes.length === 0) return failed("the provider answered with no audio");
    return { ok: true, bytes };
  } catch (error) {
    if (signal.aborted) throw error;
    if (posted.timedOut()) return timedOut();
    return failed(redactSecrets((error as Error).message, secrets));
  }
}

/** A refused key is `auth`; any other status is `failed`, with the provider's own message (its key masked) when it gave one. */
async function httpFailure(response: Response, secrets: string[]): Promise<SpeechFailure> {
  const text = (await readCapped(response, ERROR_BODY_MAX_BYTES).catch(() => Buffer.alloc(0))).toString("utf8");
  let message: string | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === "string" && candidate.trim()) message = redactSecrets(candidate.trim(), secrets).slice(0, PROVIDER_MESSAGE_MAX_CHARS);
  } catch {
    // Not JSON: the status alone says enough.
  }
  if (response.status === 401 || response.status === 403) {
    return { kind: "auth", reason: `HTTP ${response.status}: the provider refused the API key` };
  }
  const what = response.status >= 500 ? " (the provider's server failed)" : "";
  return { kind: "failed", reason: `HTTP ${response.status}${what}${message ? `: ${message}` : ""}` };
}

function failed(reason: string): SpeechOutcome {
  return { ok: false, failure: { kind: "failed", reason } };
}

/** `extraBody` without keys that would reach an object's prototype. */
function withoutPrototypeKeys(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!extra) return {};
  return Object.fromEntries(Object.entries(extra).filter(([key]) => key !== "__proto__" && key !== "constructor" && key !== "prototype"));
}

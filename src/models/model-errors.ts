import type { ModelErrorKind } from "./types.js";
import { isContextOverflowText } from "./context-overflow.js";
import type { ClassifiedModelError } from "./types.js";
import { retryAfterOf } from "./retry-after.js";

/** The SDK's own error classes, passed in so this module loads neither SDK. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/** Where the failure happened: before the response began, or while its stream was read. */
export type FailurePhase = "request" | "stream";

/**
 * Any thrown value → kind, retryability and a message safe to show and log. Status codes
 * decide first; connection-level failures and aborts come from the SDK's classes; anything
 * unrecognised while reading the body is a broken stream. `secrets` are scrubbed from the text.
 */
export function classifyModelError(err: unknown, signal: AbortSignal, sdk: SdkErrorClasses, phase: FailurePhase, secrets: readonly (string | undefined)[]): ClassifiedModelError {
  const classified = classify(err, signal, sdk, phase);
  return { ...classified, message: redactSecrets(classified.message, secrets) };
}

function classify(err: unknown, signal: AbortSignal, sdk: SdkErrorClasses, phase: FailurePhase): ClassifiedModelError {
  if (signal.aborted || err instanceof sdk.APIUserAbortError || (err as Error)?.name === "AbortError") {
    return { kind: "aborted", retryable: false, message: abortMessage(signal) };
  }
  if (err instanceof sdk.APIConnectionTimeoutError) {
    return { kind: "timeout", retryable: true, message: "request timed out before the provider answered" };
  }
  if (err instanceof sdk.APIConnectionError) {
    return { kind: "network", retryable: true, message: `connection failed: ${causeText(err)}` };
  }
  if (err instanceof sdk.APIError) {
    const status = (err as { status?: unknown }).status;
    const detail = apiDetail(err);
    if (typeof status === "number") {
      const retryAfterMs = retryAfterOf((err as { headers?: unknown }).headers);
      return { ...byStatus(status, `HTTP ${status}: ${detail}`, detail), status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    return byErrorType(errorType(err), detail);
  }
  if (err instanceof SyntaxError) {
    return { kind: "malformed", retryable: false, message: `unparseable stream data: ${err.message}` };
  }
  const text = err instanceof Error ? err.message : String(err);
  if (phase === "stream") {
    // The body broke off mid-stream (socket reset, "terminated"): the reply is incomplete.
    return { kind: "malformed", retryable: true, message: `stream ended early: ${text}` };
  }
  return { kind: "unknown", retryable: false, message: text };
}

function byStatus(status: number, message: string, detail: string): ClassifiedModelError {
  const result = (kind: ModelErrorKind, retryable: boolean) => ({ kind, retryable, message });
  // Some servers (Ollama) answer an overflow with a 5xx: the wording decides before the status.
  if (status === 413 || (status !== 401 && status !== 403 && status !== 429 && isContextOverflowText(detail))) return result("context_length", false);
  if (status === 401 || status === 403 || status === 402) return result("auth", false);
  if (status === 429) return result("rate_limit", true);
  if (status === 408) return result("timeout", true);
  if (status >= 500) return result("server", true);
  if (status === 404) return result("config", false);
  // The provider refused this request (a parameter it does not take, a malformed message).
  if (status === 400 || status === 422) return result("bad_request", false);
  return result("unknown", false);
}

// An error event inside a 200 stream carries a type instead of a status.
function byErrorType(type: string | undefined, detail: string): ClassifiedModelError {
  const t = (type ?? "").toLowerCase();
  if (t.includes("request_too_large") || isContextOverflowText(detail)) return { kind: "context_length", retryable: false, message: detail };
  if (t.includes("rate_limit")) return { kind: "rate_limit", retryable: true, message: detail };
  if (t.includes("authentication") || t.includes("permission")) return { kind: "auth", retryable: false, message: detail };
  if (t.includes("invalid_request")) return { kind: "unknown", retryable: false, message: detail };
  return { kind: "server", retryable: true, message: detail };
}

/** The error body an SDK error carries: `{ error: { message, type } }` or the fields flat. */
interface ApiErrorBody {
  error?: { message?: unknown; type?: unknown };
  message?: unknown;
  type?: unknown;
  code?: unknown;
}

function apiDetail(err: Error): string {
  const body = (err as { error?: unknown }).error as ApiErrorBody | undefined;
  const nested = body?.error?.message ?? body?.message;
  if (typeof nested === "string" && nested) return nested;
  const apiMessage = (err as { apiMessage?: unknown }).apiMessage;
  if (typeof apiMessage === "string" && apiMessage) return apiMessage;
  return err.message.replace(/^\d{3}\s+/, "");
}

function errorType(err: Error): string | undefined {
  const body = (err as { error?: unknown }).error as ApiErrorBody | undefined;
  const candidates = [(err as { type?: unknown }).type, body?.error?.type, body?.type, body?.code];
  return candidates.find((c): c is string => typeof c === "string");
}

function causeText(err: Error): string {
  const cause = (err as { cause?: unknown }).cause as { message?: string; code?: string } | undefined;
  const parts = [cause?.code, cause?.message].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : err.message;
}

function abortMessage(signal: AbortSignal): string {
  const reason = signal.reason;
  const why = reason instanceof Error && reason.name !== "AbortError" ? reason.message : undefined;
  return why ? `request aborted: ${why}` : "request aborted";
}

/** Every occurrence of a secret (API key, auth header value) becomes `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real keys are long.
    if (secret && secret.length >= 6) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/**
 * A URL as an error may show it: credentials written into it (`https://user:pass@proxy/v1`, as
 * some proxies take them) become `***`.
 */
export function urlWithoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1***@");
}

/** Header values that may carry credentials, for redaction. */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  return (
    Object.entries(headers ?? {})
      .filter(([name]) => /auth|key|token|secret|cookie/i.test(name))
      // "Bearer sk-…" may be echoed without its scheme, so the bare credential is scrubbed too.
      .flatMap(([, value]) => [value, value.replace(/^(bearer|basic|token)\s+/i, "")])
  );
}

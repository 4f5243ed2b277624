import { GrammyError, HttpError } from "grammy";
import { ChannelPermanentError, ChannelRateLimitError } from "../../src/channels/types.js";

/**
 * Telegram failures as token-free messages and channel errors. grammY's own errors can carry the
 * request URL, which contains the bot token (`/bot<token>/<method>`), so messages are rebuilt
 * from `error_code` + `description` (or the network error's code), and every text still passes
 * through `redact` as a second line of defence.
 */

/** 401 (and 404 for a malformed token): Telegram does not know this bot. Never retried. */
export function isTokenRejected(error: unknown): boolean {
  return error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
}

export function isConflict(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 409;
}

export function isParseEntitiesError(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && /can't parse entities/i.test(error.description);
}

export function isMessageNotModified(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && /message is not modified/i.test(error.description);
}

/** `createForumTopic` in a group without Topics. */
export function isNotAForum(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && /not a forum/i.test(error.description);
}

/** One line saying what went wrong, e.g. `Telegram sendMessage failed (429: Too Many Requests: retry after 3)`. */
export function describeTelegramError(error: unknown, token: string, method = methodOf(error)): string {
  let detail: string;
  if (error instanceof GrammyError) {
    detail = `(${error.error_code}: ${error.description})`;
  } else if (error instanceof HttpError) {
    detail = `(network error: ${networkCause(error.error)})`;
  } else {
    detail = `(${error instanceof Error ? error.name : "unknown error"})`;
  }
  return redact(`Telegram ${method} failed ${detail}`, token);
}

/** The error `ChannelAccount.send` and friends throw: rate limit, permanent, or plain. */
export function toChannelError(error: unknown, token: string, method?: string): Error {
  const message = describeTelegramError(error, token, method);
  if (error instanceof GrammyError) {
    if (error.error_code === 429) return new ChannelRateLimitError(message, (error.parameters.retry_after ?? 1) * 1000);
    if (isPermanentRefusal(error)) return new ChannelPermanentError(message);
  }
  return new Error(message);
}

/** No retry can help: the token is wrong, the chat is gone, or the bot may not write there (blocked, kicked). */
function isPermanentRefusal(error: GrammyError): boolean {
  if (isTokenRejected(error) || error.error_code === 403) return true;
  return error.error_code === 400 && /chat not found/i.test(error.description);
}

/** The Bot API method a grammY error came from (network errors only name it in their message). */
function methodOf(error: unknown): string {
  if (error instanceof GrammyError) return error.method;
  if (error instanceof HttpError) return /'(\w+)'/.exec(error.message)?.[1] ?? "request";
  return "request";
}

/** node-fetch errors say `request to http://…/bot<token>/… failed`: keep only the code. */
function networkCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return code;
    if (cause.name === "AbortError") return "aborted";
    // grammY's own timeout error: "Request to 'getUpdates' timed out after N seconds".
    if (/timed out/.test(cause.message)) return "timed out";
    return cause.name;
  }
  return "unknown";
}

function redact(text: string, token: string): string {
  return token ? text.split(token).join("<redacted>") : text;
}

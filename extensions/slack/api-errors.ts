import { ChannelPermanentError, ChannelRateLimitError } from "../../src/channels/types.js";

/** Slack answers that will not change on retry: the chat, the message or the token is wrong. */
const PERMANENT_ERRORS = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "missing_scope",
  "no_permission",
  "restricted_action",
  "msg_too_long",
  "no_text",
  "invalid_blocks",
  "message_not_found",
  "cant_update_message",
  "edit_window_closed",
  "invalid_name",
  "user_not_found",
  "cannot_dm_bot",
  "user_disabled",
  "team_access_not_granted",
]);

/** Errors after which an account must stop: retrying with the same token only repeats them. */
const AUTH_ERRORS = new Set(["invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired", "team_disabled", "user_removed_from_team"]);

/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/** The shapes @slack/web-api throws, read structurally so this file needs no SDK import. */
interface SlackSdkError {
  code?: string;
  data?: { error?: string; response_metadata?: { retryAfter?: number } };
  retryAfter?: number;
  statusCode?: number;
  message?: string;
}

/** The Slack error code of an `{ok:false}` answer, if that is what `error` is. */
export function slackErrorCode(error: unknown): string | undefined {
  const sdkError = error as SlackSdkError | undefined;
  return sdkError?.code === "slack_webapi_platform_error" ? sdkError.data?.error : undefined;
}

export function isAuthError(error: unknown): boolean {
  return AUTH_ERRORS.has(slackErrorCode(error) ?? "");
}

/** A one-line, token-free description of a failed Web API call. */
export function describeSlackError(method: string, error: unknown, secrets: readonly string[]): string {
  const sdkError = (error ?? {}) as SlackSdkError;
  let text: string;
  switch (sdkError.code) {
    case "slack_webapi_platform_error":
      text = `Slack ${method} failed: ${sdkError.data?.error ?? "unknown error"}`;
      break;
    case "slack_webapi_rate_limited_error":
      text = `Slack rate-limited ${method} (retry after ${sdkError.retryAfter ?? "?"} s)`;
      break;
    case "slack_webapi_http_error":
      text = `Slack ${method} answered HTTP ${sdkError.statusCode ?? "?"}`;
      break;
    default:
      text = `Slack ${method} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return redactSecrets(text, secrets);
}

/**
 * Turn an SDK error into what delivery understands: `ChannelRateLimitError` (wait and retry),
 * `ChannelPermanentError` (give up), or a plain Error (retry with backoff).
 */
export function toChannelError(method: string, error: unknown, secrets: readonly string[]): Error {
  const message = describeSlackError(method, error, secrets);
  const sdkError = (error ?? {}) as SlackSdkError;
  if (sdkError.code === "slack_webapi_rate_limited_error") {
    return new ChannelRateLimitError(message, retryAfterMs(sdkError.retryAfter));
  }
  const code = slackErrorCode(error);
  // `ratelimited` can also arrive as a plain `{ok:false}` body without the 429.
  if (code === "ratelimited") return new ChannelRateLimitError(message, retryAfterMs(sdkError.data?.response_metadata?.retryAfter));
  if (code && PERMANENT_ERRORS.has(code)) return new ChannelPermanentError(message);
  return new Error(message);
}

function retryAfterMs(seconds: number | undefined): number {
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}

/** Slack token shapes, caught even when they are not the ones we were given. */
const TOKEN_PATTERN = /\bx(?:ox[abpre]|app)-[A-Za-z0-9-]+/g;

/** Replace our secrets and anything shaped like a Slack token with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret) clean = clean.split(secret).join("[redacted]");
  }
  return clean.replace(TOKEN_PATTERN, "[redacted]");
}

/** A start-up failure, already described for the user without secrets; `permanent` ends retrying. */
export class SlackStartError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "SlackStartError";
  }
}

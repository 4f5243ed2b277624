import { DiscordAPIError, DiscordjsErrorCodes, GatewayCloseCodes, HTTPError, RateLimitError } from "discord.js";
import { ChannelPermanentError, ChannelRateLimitError } from "../../src/channels/types.js";

/** Replaces every occurrence of the bot token; applied to all text that leaves the plugin. */
export type Redactor = (text: string) => string;

export function createRedactor(secret: string): Redactor {
  return (text) => (secret ? text.split(secret).join("[redacted]") : text);
}

/**
 * A discord.js REST failure as the delivery layer understands it. Rate limits surface as
 * `RateLimitError` because the client is built with `rejectOnRateLimit` (it would otherwise sleep
 * inside `send` for as long as Discord asks). Any other 4xx — Missing Access (50001), Unknown
 * Channel (10003), cannot DM this user (50007), Unknown Message, a rejected token — will fail the
 * same way on every retry, so it is permanent. 5xx and network errors stay plain (retryable).
 */
export function toChannelError(error: unknown, redact: Redactor): Error {
  if (error instanceof ChannelPermanentError || error instanceof ChannelRateLimitError) return error;
  if (error instanceof RateLimitError) {
    const retryAfterMs = Math.max(error.retryAfter, error.timeToReset, 0);
    return new ChannelRateLimitError(`discord: rate limited on ${error.method.toUpperCase()} ${error.route}; retry after ${retryAfterMs} ms`, retryAfterMs);
  }
  if (error instanceof DiscordAPIError) {
    const text = redact(`discord: ${error.message} (HTTP ${error.status}, code ${String(error.code)})`);
    return error.status >= 400 && error.status < 500 ? new ChannelPermanentError(text) : new Error(text);
  }
  if (error instanceof HTTPError) return new Error(redact(`discord: HTTP ${error.status} ${error.message}`));
  return new Error(redact(`discord: ${error instanceof Error ? error.message : String(error)}`));
}

export const TOKEN_REJECTED = "discord: the bot token was rejected (401 Unauthorized); set a valid channels.discord token and restart the account";

/** Why a failed login can never succeed by retrying, or null when a retry may help. */
export function permanentLoginProblem(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === DiscordjsErrorCodes.TokenInvalid) return TOKEN_REJECTED;
  if (error instanceof DiscordAPIError && error.status === 401) return TOKEN_REJECTED;
  return null;
}

/** Why discord.js gave up on the shard (`shardDisconnect`: only its unrecoverable close codes). */
export function describeFinalClose(code: number): string {
  if (code === GatewayCloseCodes.AuthenticationFailed) return TOKEN_REJECTED;
  if (code === GatewayCloseCodes.DisallowedIntents) {
    return "discord: the gateway refused a privileged intent (4014); enable Message Content Intent for the bot in the Developer Portal, or set channels.discord intents.messageContent: false";
  }
  return `discord: the gateway closed the connection for good (${code} ${GatewayCloseCodes[code] ?? "unknown close code"})`;
}

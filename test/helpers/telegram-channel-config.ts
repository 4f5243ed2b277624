import type { FakeTelegram } from "../fakes/telegram-server.js";

/**
 * `channels.telegram` for an account on the fake Bot API server: long polls of 1 second retried
 * after 50 ms (a test never waits on a slow poll), typing indicators off. `settings` adds to it
 * and wins (`allowFrom`, `groups`, `dmPolicy`, ...).
 */
export function telegramChannelConfig(telegram: FakeTelegram, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return { botToken: telegram.token, apiRoot: telegram.url, pollingTimeoutSeconds: 1, pollingRetryBaseMs: 50, typingIntervalSeconds: 0, ...settings };
}

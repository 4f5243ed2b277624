import { Api } from "grammy";

/** grammY's Node build types its signals with the `abort-controller` polyfill. */
export type GrammySignal = Parameters<Api["getMe"]>[0];

/**
 * Native `AbortSignal`s work at run time (grammY only calls `addEventListener` on them); the
 * polyfill's types just do not line up with Node's.
 */
export function grammySignal(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}

/**
 * The Bot API client. Its per-request timeout sits above the long-poll timeout, so it also acts
 * as the watchdog for a `getUpdates` that never returns (the loop then retries).
 */
export function createTelegramApi(token: string, options: { apiRoot: string; pollingTimeoutSeconds: number }): Api {
  return new Api(token, { apiRoot: options.apiRoot, timeoutSeconds: options.pollingTimeoutSeconds + 15 });
}

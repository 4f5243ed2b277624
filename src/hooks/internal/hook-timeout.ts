/** How long one internal hook handler may run when `hooks.internal.timeoutMs` is not set. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

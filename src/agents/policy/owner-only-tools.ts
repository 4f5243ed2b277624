/**
 * Tools that reach the host or the gateway itself: a shell, background processes, gateway
 * control (config, restart, update) and scheduled jobs that run later with the agent's
 * rights. Channel senders other than the owner never get them, whatever the allow lists say.
 */
export const OWNER_ONLY_TOOLS: readonly string[] = ["exec", "process", "gateway", "cron"];

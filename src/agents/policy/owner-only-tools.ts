/**
 * Tools that reach the host or the gateway itself: a shell, background processes, gateway
 * control (config, restart, update), scheduled jobs that run later with the agent's rights, and
 * the managed browser, whose one profile and tabs every session shares (a sender could read what
 * the owner's session left open; OpenClaw leaves it to the allow lists). Channel senders other
 * than the owner never get them, whatever the allow lists say.
 */
export const OWNER_ONLY_TOOLS: readonly string[] = ["exec", "process", "gateway", "cron", "browser"];

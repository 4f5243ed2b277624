import type { OpenClawConfig } from "../config/index.js";
import type { ChatRoute, CronChannelPort, CronConversations } from "./ports.js";
import { resolveAnnounceRoute } from "./run-job.js";
import type { CronJob } from "./types.js";

const ERROR_CHARS = 300;

/**
 * The chat a failing job is reported to: the chat the job announces to, else
 * `cron.failureAlert.channel` + `to`. Undefined when alerts to chats are off or neither exists.
 */
export function failureAlertRoute(
  job: CronJob,
  config: OpenClawConfig,
  deps: { channels: () => CronChannelPort | undefined; conversations: CronConversations },
): ChatRoute | { error: string } | undefined {
  const settings = config.cron?.failureAlert;
  if (settings?.enabled === false) return undefined;
  if (job.delivery.mode === "announce") {
    const own = resolveAnnounceRoute(job, deps);
    if (!("error" in own)) return own;
  }
  if (!settings?.channel || !settings.to) return undefined;
  const channels = deps.channels();
  const route: ChatRoute = { channel: settings.channel, to: settings.to, ...(settings.accountId ? { accountId: settings.accountId } : {}) };
  if (!channels) return { error: "no chat channel is configured on this gateway (cron.failureAlert.channel)" };
  const check = channels.check(route);
  return check.ok ? route : { error: `cron.failureAlert: ${check.reason}` };
}

/** What the chat is told: which job, how often it failed, the last error, and where to look. */
export function failureAlertText(job: CronJob): string {
  const error = (job.state.lastError ?? "error").replace(/\s+/g, " ").slice(0, ERROR_CHARS);
  const failures = job.state.consecutiveErrors ?? 0;
  return `⚠️ Scheduled job "${job.name}" failed ${failures} times in a row. Last error: ${error}\nDetails: openclaw cron runs ${job.id}`;
}

/** The delivery-ledger key of the alert a run raised: a resend after a crash goes out once. */
export function failureAlertKey(runId: string): string {
  return `cron-alert:${runId}`;
}

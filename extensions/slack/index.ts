import type { ChannelLimits, ChannelPlugin } from "../../src/channels/types.js";
import { SlackAccount } from "./account.js";
import { findSettingsProblems, readSlackSettings } from "./settings.js";

const DEFAULT_LIMITS: ChannelLimits = { textChunkLimit: 8000 };

/**
 * Slack through @slack/bolt: Socket Mode (`appToken`) by default, or HTTP Events (`mode: "http"`,
 * `signingSecret`) served on the gateway's port at `webhookPath`. Config keys: `mode`, `botToken`,
 * `appToken`, `signingSecret` (env `SLACK_BOT_TOKEN` / `SLACK_APP_TOKEN` / `SLACK_SIGNING_SECRET`
 * for the default account), `slackApiUrl`, `webhookPath`, `unfurlLinks`, `textChunkLimit`.
 */
const slackPlugin: ChannelPlugin = {
  id: "slack",
  label: "Slack",
  defaultLimits: DEFAULT_LIMITS,
  checkAccountConfig(config, env, accountId) {
    return findSettingsProblems(readSlackSettings(config, env, accountId));
  },
  createAccount(context, env) {
    const settings = readSlackSettings(context.config, env, context.accountId);
    return new SlackAccount(context, settings, findSettingsProblems(settings), limitsFrom(context.config));
  },
};

export default slackPlugin;

/** The defaults with the account's `textChunkLimit` / `maxLinesPerMessage` overrides. */
function limitsFrom(config: Readonly<Record<string, unknown>>): ChannelLimits {
  const limits: ChannelLimits = { ...DEFAULT_LIMITS };
  if (isPositiveInteger(config.textChunkLimit)) limits.textChunkLimit = config.textChunkLimit;
  if (isPositiveInteger(config.maxLinesPerMessage)) limits.maxLinesPerMessage = config.maxLinesPerMessage;
  return limits;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

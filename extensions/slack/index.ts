import type { ChannelPlugin } from "../../src/channels/types.js";
import { SlackAccount } from "./account.js";
import { findSettingsProblems, readSlackSettings } from "./settings.js";

/**
 * Slack through @slack/bolt: Socket Mode (`appToken`) by default, or HTTP Events (`mode: "http"`,
 * `signingSecret`) served on the gateway's port at `webhookPath`. Config keys: `mode`, `botToken`,
 * `appToken`, `signingSecret` (env `SLACK_BOT_TOKEN` / `SLACK_APP_TOKEN` / `SLACK_SIGNING_SECRET`
 * for the default account), `slackApiUrl`, `webhookPath`, `unfurlLinks`, `textChunkLimit`.
 */
const slackPlugin: ChannelPlugin = {
  id: "slack",
  label: "Slack",
  defaultLimits: { textChunkLimit: 8000 },
  blockStreaming: { coalesce: { minChars: 1500, idleMs: 1000 } },
  checkAccountConfig(config, env, accountId) {
    return findSettingsProblems(readSlackSettings(config, env, accountId));
  },
  botToken(config, env, accountId) {
    return readSlackSettings(config, env, accountId).botToken;
  },
  eventStreamToken(config, env, accountId) {
    const settings = readSlackSettings(config, env, accountId);
    return settings.mode === "socket" ? settings.appToken : undefined;
  },
  createAccount(context, env) {
    const settings = readSlackSettings(context.config, env, context.accountId);
    return new SlackAccount(context, settings, findSettingsProblems(settings));
  },
};

export default slackPlugin;

import { DEFAULT_ACCOUNT_ID } from "../../src/sessions/keys/index.js";
import { readSlashCommandSettings, type SlashCommandSettings } from "./slash-command.js";

export type SlackMode = "socket" | "http";

/** One Slack account's config, read and defaulted. Tokens are absent when unset. */
export interface SlackSettings {
  mode: SlackMode;
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  slackApiUrl: string;
  webhookPath: string;
  unfurlLinks: boolean;
  slashCommand: SlashCommandSettings;
  /** The `SLACK_*` environment variables apply (default account only). */
  usesEnv: boolean;
}

const DEFAULT_API_URL = "https://slack.com/api/";
const DEFAULT_WEBHOOK_PATH = "/slack/events";

/**
 * Read an account's merged config block. The `SLACK_*` environment variables fill in missing
 * secrets for the default account only: a second account must never silently borrow the first
 * account's tokens.
 */
export function readSlackSettings(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId: string = DEFAULT_ACCOUNT_ID): SlackSettings {
  const usesEnv = accountId === DEFAULT_ACCOUNT_ID;
  const secret = (key: string, envName: string) => text(config[key]) ?? (usesEnv ? text(env[envName]) : undefined);
  return {
    mode: config.mode === "http" ? "http" : "socket",
    botToken: secret("botToken", "SLACK_BOT_TOKEN"),
    appToken: secret("appToken", "SLACK_APP_TOKEN"),
    signingSecret: secret("signingSecret", "SLACK_SIGNING_SECRET"),
    slackApiUrl: text(config.slackApiUrl) ?? DEFAULT_API_URL,
    webhookPath: text(config.webhookPath) ?? DEFAULT_WEBHOOK_PATH,
    unfurlLinks: config.unfurlLinks === true,
    slashCommand: readSlashCommandSettings(config.slashCommand),
    usesEnv,
  };
}

/**
 * Problems that keep the account from starting, worded so the user knows what to set. The config
 * schema checks the keys' own shapes (mode, token prefixes, slackApiUrl, webhookPath); what is
 * left here depends on the environment variables too: a missing token or secret, and the prefix
 * of a token that came from SLACK_*.
 */
export function findSettingsProblems(settings: SlackSettings): string[] {
  const problems: string[] = [];
  const orEnv = (envName: string) => (settings.usesEnv ? ` (or the ${envName} environment variable)` : "");

  if (!settings.botToken) {
    problems.push(`Slack needs a bot token: set botToken to the app's xoxb-… token${orEnv("SLACK_BOT_TOKEN")}.`);
  } else if (!settings.botToken.startsWith("xoxb-")) {
    problems.push("Slack botToken must be the bot token that starts with xoxb- (OAuth & Permissions page of the Slack app).");
  }
  if (settings.mode === "socket") {
    if (!settings.appToken) {
      problems.push(`Slack Socket Mode needs an app-level token: set appToken to an xapp-… token with connections:write${orEnv("SLACK_APP_TOKEN")}, or use mode "http".`);
    } else if (!settings.appToken.startsWith("xapp-")) {
      problems.push("Slack appToken must be an app-level token that starts with xapp- (Basic Information → App-Level Tokens).");
    }
  }
  if (settings.mode === "http" && !settings.signingSecret) {
    problems.push(`Slack HTTP mode needs the app's signing secret: set signingSecret${orEnv("SLACK_SIGNING_SECRET")}.`);
  }
  return problems;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

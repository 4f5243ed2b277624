import type { FakeSlack } from "../fakes/slack-server.js";

/**
 * `channels.slack` for a Socket Mode account on the fake Slack server.
 * `settings` adds to it and wins (`allowFrom`, `channels`, ...).
 */
export function slackChannelConfig(slack: FakeSlack, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return { mode: "socket", botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, ...settings };
}

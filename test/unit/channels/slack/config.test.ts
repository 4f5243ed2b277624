import { describe, expect, it } from "vitest";
import slackPlugin from "../../../../extensions/slack/index.js";

const check = (config: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, accountId?: string) => slackPlugin.checkAccountConfig(config, env, accountId);

describe("Slack account config", () => {
  it("describes the plugin", () => {
    expect(slackPlugin).toMatchObject({ id: "slack", label: "Slack", defaultLimits: { textChunkLimit: 8000 } });
  });

  it("accepts a Socket Mode account", () => {
    expect(check({ botToken: "xoxb-1", appToken: "xapp-1" })).toEqual([]);
  });

  it("asks for a missing bot token", () => {
    expect(check({ appToken: "xapp-1" })).toEqual([expect.stringMatching(/bot token.*botToken.*SLACK_BOT_TOKEN/)]);
  });

  it("asks for the app token in Socket Mode only", () => {
    expect(check({ botToken: "xoxb-1" })).toEqual([expect.stringMatching(/Socket Mode needs an app-level token.*appToken/)]);
    expect(check({ mode: "http", botToken: "xoxb-1", signingSecret: "s" })).toEqual([]);
  });

  it("asks for the signing secret in HTTP mode", () => {
    expect(check({ mode: "http", botToken: "xoxb-1" })).toEqual([expect.stringMatching(/HTTP mode needs .*signing secret/)]);
  });

  it("spots environment tokens in the wrong slot (the config schema checks the file's own)", () => {
    expect(check({}, { SLACK_BOT_TOKEN: "xapp-1", SLACK_APP_TOKEN: "xoxb-1" })).toEqual([
      expect.stringMatching(/botToken must .*xoxb-/),
      expect.stringMatching(/appToken must .*xapp-/),
    ]);
  });

  it("takes SLACK_* variables for the default account only", () => {
    const env = { SLACK_BOT_TOKEN: "xoxb-env", SLACK_APP_TOKEN: "xapp-env" };
    expect(check({}, env)).toEqual([]);
    expect(check({}, env, "default")).toEqual([]);
    const problems = check({}, env, "second");
    expect(problems).toHaveLength(2);
    expect(problems.join(" ")).not.toContain("SLACK_");
  });

  it("never puts a token into a problem message", () => {
    expect(check({ botToken: "xapp-secret-value", appToken: "xoxb-secret-value" }).join(" ")).not.toContain("secret-value");
  });
});

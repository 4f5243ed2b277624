import { afterAll, afterEach, beforeAll } from "vitest";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import type { FakeServers } from "./fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";

export interface FakeSlackGateways {
  /** The file's fake Slack (started before its tests, closed after them). */
  readonly slack: FakeSlack;
  /**
   * A gateway on the fake Slack and the file's fake model, once its Slack account has started:
   * `slackKeys` go over the bot token and the API URL (add `appToken` for Socket Mode, or
   * `mode: "http"` and a `signingSecret`). `debugLog` writes debug lines too. Killed after the test.
   */
  start(slackKeys: Record<string, unknown>, options?: { debugLog?: boolean }): Promise<GatewayProcess>;
}

/** One fake Slack for a test file, and the gateways its tests start on it; armed failures are forgotten after each test. */
export function useFakeSlackGateways(servers: FakeServers): FakeSlackGateways {
  let slack: FakeSlack | undefined;
  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  afterAll(async () => {
    await slack?.close();
  });
  afterEach(() => {
    slack?.dropConnections();
    slack?.clearArmed();
  });
  const started = (): FakeSlack => {
    if (!slack) throw new Error("the fake Slack starts in beforeAll: use it inside a test");
    return slack;
  };
  return {
    get slack() {
      return started();
    },
    async start(slackKeys, options = {}) {
      const fake = started();
      const stateDir = makeTempDir("openclaw-slack-");
      const channels = { slack: { botToken: fake.botToken, slackApiUrl: fake.apiUrl, ...slackKeys } };
      const content = fakeModelConfig(servers.model, stateDir, { channels, ...(options.debugLog ? { logging: { level: "debug" } } : {}) });
      const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
      await gw.waitForOutput(/channel account started/, 10_000);
      return gw;
    },
  };
}

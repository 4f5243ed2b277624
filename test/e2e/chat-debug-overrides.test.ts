import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `/debug`: config values the owner sets from a chat that hold in memory only — applied at once,
 * kept over later edits of the file, never written to it, refused for keys read only at start.
 */

const OWNER = 901;
const GUEST = 902;

let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let sock: TestSocket;
let configPath: string;
let messageId = 1;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  configPath = path.join(stateDir, "openclaw.json");
  const content = fakeModelConfig(model, stateDir, {
    channels: { telegram: telegramChannelConfig(telegram, { dmPolicy: "allowlist", allowFrom: [String(OWNER), String(GUEST)] }) },
    commands: { debug: true, ownerAllowFrom: [`telegram:${OWNER}`] },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  await gw.waitForOutput(/channel account started/, 30_000);
  sock = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await Promise.all([telegram?.close(), model?.close()]);
});

async function says(fromId: number, text: string): Promise<string> {
  const before = telegram.messages(fromId).length;
  telegram.pushMessage({ chatId: fromId, fromId, fromName: "Someone", text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(fromId).length > before, 20_000);
  return String(telegram.messages(fromId)[before]!.text);
}

describe("/debug", () => {
  it("sets a value live without touching the file, keeps it over a later edit of the file, and lists it", async () => {
    const file = fs.readFileSync(configPath, "utf8");
    expect(await says(OWNER, "/debug show")).toBe("No runtime overrides: the gateway runs with its config file as it is.");
    expect(await says(OWNER, '/debug set messages.responsePrefix="[dbg]"')).toBe(
      'Set messages.responsePrefix = "[dbg]" (runtime only: the config file is unchanged, and a restart drops it). Applied: messages.responsePrefix.',
    );
    expect(fs.readFileSync(configPath, "utf8")).toBe(file);
    expect(await says(OWNER, "hello")).toBe("[dbg] model: hello");

    // An edit of the file is applied with the override still laid over it.
    const edited = JSON.parse(file);
    edited.agents.defaults.thinkingDefault = "low";
    fs.writeFileSync(configPath, JSON.stringify(edited, null, 2));
    await gw.waitForOutput(/"changedPaths":\["agents\.defaults\.thinkingDefault"\][^\n]*"msg":"config reloaded"/, 10_000);
    expect(await says(OWNER, "again")).toBe("[dbg] model: again");
    const got = await sock.request("config.get", {});
    expect(got.payload.parsed.messages?.responsePrefix).toBeUndefined();

    expect(await says(OWNER, "/debug show")).toBe('Runtime overrides (runtime only: the config file is unchanged, and a restart drops it):\nmessages.responsePrefix = "[dbg]"');
  });

  it("refuses keys read only at start, invalid values and unknown keys, changing nothing", async () => {
    expect(await says(OWNER, "/debug set gateway.port=1234")).toBe(
      "Not changed: gateway.port is read only at start, and a restart drops runtime overrides: change it in the config file (/config set) instead",
    );
    expect(await says(OWNER, "/debug set agents.defaults.thinkingDefault=loud")).toMatch(/^Not changed: .*agents\.defaults\.thinkingDefault/);
    expect(await says(OWNER, "/debug set mesages.responsePrefix=x")).toMatch(/^Not changed: mesages: not a config key this gateway knows; did you mean "messages"\?/);
    expect(await says(OWNER, "/debug unset messages.nothing")).toBe("Not changed: messages.nothing has no runtime override");
    expect(await says(OWNER, "/debug show")).toContain('messages.responsePrefix = "[dbg]"');
  });

  it("hides a secret it is given, and is the owner's alone", async () => {
    expect(await says(OWNER, '/debug set models.providers.fake.apiKey="sk-debug-secret"')).toBe(
      'Set models.providers.fake.apiKey = "[hidden]" (runtime only: the config file is unchanged, and a restart drops it). Applied: models.providers.fake.apiKey.',
    );
    expect(await says(OWNER, "/debug show")).toContain('models.providers.fake.apiKey = "[hidden]"');
    expect(gw.output()).not.toContain("sk-debug-secret");
    expect(await says(GUEST, "/debug reset")).toMatch(/owner/i);
    expect(await says(OWNER, "/debug show")).toContain("models.providers.fake.apiKey");
  });

  it("unset and reset return to the file as it is", async () => {
    expect(await says(OWNER, "/debug unset messages.responsePrefix")).toBe("Removed the runtime override of messages.responsePrefix. Applied: messages.responsePrefix.");
    expect(await says(OWNER, "plain")).toBe("model: plain");
    expect(await says(OWNER, "/debug reset")).toBe("Cleared 1 runtime override: the config file applies as it is. Applied: models.providers.fake.apiKey.");
    expect(await says(OWNER, "/debug show")).toBe("No runtime overrides: the gateway runs with its config file as it is.");
  });
});

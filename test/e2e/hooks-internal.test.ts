import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, readIndex, waitUntil } from "../helpers/reliability.js";

/**
 * Internal hooks through the real gateway process: the bundled boot-md hook runs BOOT.md at
 * start as an agent turn (which tells a Telegram chat through the message tool), and the
 * session, agent and message event families reach an enabled hook with their context.
 */

const CHAT = 401;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
});
afterAll(async () => {
  await telegram.close();
  await model.close();
});
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  model.reset();
});

const lastRole = (req: RecordedRequest): string => req.body.messages?.at(-1)?.role ?? "";
const telegramConfig = () => ({
  telegram: { botToken: telegram.token, apiRoot: telegram.url, pollingTimeoutSeconds: 1, pollingRetryBaseMs: 50, allowFrom: [String(CHAT)], typingIntervalSeconds: 0 },
});

describe("internal hooks in the gateway", { timeout: 120_000 }, () => {
  it("boot-md runs BOOT.md once at start in its own session; the agent tells the chat through the message tool", async () => {
    const stateDir = makeTempDir("openclaw-boot-md-");
    const workspace = path.join(stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, "BOOT.md"), "# Boot\n- Tell the ops chat that the gateway is back.\n");
    model.setResponder((req) => {
      if (lastRole(req) === "tool") return { text: "NO_REPLY" };
      if (lastUserText(req).includes("Tell the ops chat")) {
        return { toolCalls: [{ name: "message", arguments: { channel: "telegram", to: String(CHAT), message: "The gateway is back." } }] };
      }
      return { text: "unexpected" };
    });
    const hooks = { internal: { entries: { "boot-md": { enabled: true } } } };
    gateway = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: telegramConfig(), hooks }) } });
    await telegram.waitFor(() => telegram.messages(CHAT).length === 1, 30_000);
    expect(String(telegram.messages(CHAT)[0]!.text)).toBe("The gateway is back.");
    await waitUntil(() => /"msg":"internal hook agent turn ended"/.test(gateway!.output()), 20_000, "the boot turn to end");
    expect(gateway.output()).toMatch(/"hook":"boot-md","sessionKey":"agent:main:hook:boot-md"[^\n]*"status":"ok"/);
    // One boot turn (the model call and the call after the tool result); the main session was not touched.
    const turns = model.requests.filter((r) => r.method === "POST" && lastUserText(r).includes("BOOT.md"));
    expect(turns.length).toBeGreaterThanOrEqual(1);
    expect(lastUserText(turns[0]!)).toContain("- Tell the ops chat that the gateway is back.");
    expect(Object.keys(readIndex(stateDir))).toEqual(["agent:main:hook:boot-md"]);
  });
});

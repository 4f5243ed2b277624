import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, sleep, waitUntil } from "../helpers/reliability.js";

/**
 * A reply whose Telegram account is not running when it is ready: a config reload restarts the
 * account and its start hangs (the fake holds `getMe`), or the reload disables it for good.
 */

const OWNER = 111;
let model: FakeModelServer;
let telegram: FakeTelegram;
const gateways: GatewayProcess[] = [];

function configFor(stateDir: string, telegramExtra: Record<string, unknown> = {}): string {
  const telegramConfig = {
    botToken: telegram.token,
    apiRoot: telegram.url,
    pollingTimeoutSeconds: 1,
    pollingRetryBaseMs: 50,
    allowFrom: [String(OWNER)],
    typingIntervalSeconds: 0,
    ...telegramExtra,
  };
  return fakeModelConfig(model, stateDir, { channels: { telegram: telegramConfig } });
}

async function start(): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir) } });
  gateways.push(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** The model's answer waits until the test lets it go. */
function holdModelAnswer(text: string): () => void {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  model.setResponder(async () => {
    await held;
    return { text };
  });
  return answer;
}

/** A message accepted while the account runs, whose answer the model holds. */
async function messageAwaitingItsAnswer(text: string): Promise<{ gw: GatewayProcess; answer: () => void }> {
  const answer = holdModelAnswer(text);
  const gw = await start();
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
  await waitUntil(() => chatRequests(model).length === 1, 10_000, "the model request");
  return { gw, answer };
}

const repliesTo = (chatId: number) => telegram.messages(chatId).map((m) => String(m.text));

beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model.close();
});
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.stop("SIGKILL");
  await telegram?.close();
  model.reset();
});

describe("a reply while its channel account is not running", () => {
  it("waits for its account without spending attempts, so a platform error after the restart is still retried", { timeout: 150_000 }, async () => {
    telegram = await startFakeTelegram();
    const { gw, answer } = await messageAwaitingItsAnswer("worth the wait");
    // A reload restarts the account; its start hangs on getMe until the fake lets go (the new
    // long-poll timeout keeps the client from giving up on the request first).
    telegram.hangNext("getMe");
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, { pollingTimeoutSeconds: 50 }));
    await telegram.waitFor(() => telegram.calls.some((c) => c.method === "getMe" && c.status === 0), 10_000);
    answer();
    await gw.waitForOutput(/channel account not running/, 10_000);
    // The account stays down past the first redelivery round (30 s)…
    await sleep(35_000);
    expect(repliesTo(OWNER)).toEqual([]);
    // …and the first send once it runs meets a passing platform error (three 500s: one failed round).
    for (let i = 0; i < 3; i++) telegram.failNext("sendMessage", { status: 500 });
    telegram.release();
    await telegram.waitFor(() => repliesTo(OWNER).length === 1, 60_000);
    expect(repliesTo(OWNER)).toEqual(["worth the wait"]);
  });

  it("fails at once when the account was disabled meanwhile, naming the account and the fix", async () => {
    telegram = await startFakeTelegram();
    const { gw, answer } = await messageAwaitingItsAnswer("never sent");
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, { enabled: false }));
    await gw.waitForOutput(/channel config changed; restarting the account/, 10_000);
    answer();
    await gw.waitForOutput(/channel telegram account default is disabled \(set enabled: true under channels\.telegram to send through it\); the reply was not sent/, 10_000);
    expect(repliesTo(OWNER)).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage } from "../helpers/browser.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A session far longer than one chat.history answer (1,000 messages): the gateway pages it with
 * offset / hasMore / nextOffset, and the Chat view in Chromium pages back to its first message.
 */

const WAIT = { timeout: 30_000 };
const KEY = "agent:main:huge-history";
const SEEDED = 1_400;
let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;

/** One real turn creates the session; then its transcript gets `count` more messages, written as the gateway writes them. */
async function seedLongSession(stateDir: string, count: number): Promise<void> {
  const first = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  const { sock } = await openOperator(first.url, first.token);
  const done = sock.waitFor((f) => f.event === "chat" && f.payload.sessionKey === KEY && f.payload.state === "final", 30_000);
  await sock.request("chat.send", { sessionKey: KEY, message: "the real first turn", idempotencyKey: "seed-0" });
  await done;
  const { sessionId } = (await sock.request("chat.history", { sessionKey: KEY })).payload;
  sock.close();
  await first.stop();

  const file = path.join(stateDir, "agents", "main", "sessions", `${sessionId}.jsonl`);
  const lines = fs.readFileSync(file, "utf8").trim().split("\n");
  let parentId = JSON.parse(lines.at(-1)!).id as string;
  const added: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `seed${String(i).padStart(4, "0")}`;
    const role = i % 2 === 0 ? "user" : "assistant";
    const timestamp = Date.now();
    added.push(
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: new Date(timestamp).toISOString(),
        message: { role, content: [{ type: "text", text: `seeded message ${i}` }], timestamp },
      }),
    );
    parentId = id;
  }
  fs.appendFileSync(file, `${added.join("\n")}\n`);
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(() => ({ text: "the real first answer" }));
  const stateDir = makeTempDir();
  await seedLongSession(stateDir, SEEDED);
  gw = await startGateway({ stateDir });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
  await model?.close();
});

describe("chat.history past 1,000 messages", { timeout: 120_000 }, () => {
  it("pages back with offset until hasMore is false, every message once, oldest first", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const newest = (await sock.request("chat.history", { sessionKey: KEY, limit: 1000 })).payload;
      expect(newest).toMatchObject({ hasMore: true, nextOffset: 1000 });
      expect(newest.messages.at(-1).content[0].text).toBe(`seeded message ${SEEDED - 1}`);
      const older = (await sock.request("chat.history", { sessionKey: KEY, limit: 1000, offset: newest.nextOffset })).payload;
      expect(older.hasMore).toBe(false);
      expect(older.nextOffset).toBeUndefined();
      const all = [...older.messages, ...newest.messages].map((m: any) => m.content[0].text);
      expect(all).toHaveLength(SEEDED + 2);
      expect(all.slice(0, 3)).toEqual(["the real first turn", "the real first answer", "seeded message 0"]);
      expect(new Set(all.slice(2)).size).toBe(SEEDED);
      const past = (await sock.request("chat.history", { sessionKey: KEY, offset: 5000 })).payload;
      expect(past).toMatchObject({ messages: [], hasMore: false });
      expect((await sock.request("chat.history", { sessionKey: KEY, offset: -1 })).error.code).toBe("INVALID_REQUEST");
    } finally {
      sock.close();
    }
  });

  it("the Chat view opens on the newest messages and pages back to the first, past the newest 1,000", async () => {
    const { context, page, problems } = await openWatchedPage(browser, `http://127.0.0.1:${gw.port}/?token=${encodeURIComponent(gw.token!)}`);
    await page.locator('[data-testid="connection"].ok').waitFor(WAIT);
    await page.locator("#session-pick").selectOption(KEY);
    await page.locator(".msg", { hasText: `seeded message ${SEEDED - 1}` }).waitFor(WAIT);
    expect(await page.locator(".transcript .msg").count()).toBe(50);

    // Each click shows 50 more, reading the next page from the gateway when the loaded ones all show.
    const older = page.locator("button.older");
    await older.click();
    await expect.poll(() => page.locator(".transcript .msg").count(), WAIT).toBe(100);
    const shown = () => page.locator(".transcript .msg").count();
    while (await older.isVisible()) {
      const before = await shown();
      await older.click();
      await expect.poll(shown, WAIT).toBeGreaterThan(before);
    }
    await page.locator(".msg.user", { hasText: "the real first turn" }).waitFor(WAIT);
    const texts = await page.locator(".transcript .msg").allTextContents();
    expect(texts).toHaveLength(SEEDED + 2);
    expect(new Set(texts).size).toBe(SEEDED + 2);
    expect(problems).toEqual([]);
    await context.close();
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { waitUntilGateway } from "../helpers/reliability.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { startIdentityProxy } from "../helpers/identity-proxy.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The Channels view's Stop / Start in a real headless Chromium: a Telegram account on the fake Bot
 * API server is stopped and started again from its card. The gateway sits behind an identity-aware
 * proxy so one user signs in with operator.admin and another with operator.read only.
 */

const WAIT = { timeout: 30_000 };
const ADMIN = "ops@example.com";
const VIEWER = "viewer@example.com";
const STOP_NOTE = "stopped by channels.stop; channels.start (or a gateway restart) starts it again";

let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let browser: Browser;
let proxy: { port: number; close(): Promise<void> };
let user = ADMIN;

/** The gateway's config: the Telegram default account, plus `accounts`. */
function configFor(stateDir: string, accounts: Record<string, unknown>): string {
  return fakeModelConfig(model, stateDir, {
    gateway: {
      mode: "local",
      trustedProxies: ["127.0.0.1"],
      auth: {
        mode: "trusted-proxy",
        trustedProxy: { userHeader: "x-forwarded-user", requiredHeaders: ["x-forwarded-proto"], allowUsers: [ADMIN, VIEWER], allowLoopback: true },
        identityScopes: { [ADMIN]: ["operator.read", "operator.write", "operator.admin"], [VIEWER]: ["operator.read"] },
      },
    },
    channels: { telegram: telegramChannelConfig(telegram, { allowFrom: ["111"], accounts }) },
  });
}

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  const stateDir = makeTempDir("openclaw-ui-channels-");
  const config = configFor(stateDir, { spare: { enabled: false, botToken: "999:TEST-spare-token" } });
  gw = await startGateway({ stateDir, token: null, configFile: { name: "openclaw.json", content: config } });
  await gw.waitForOutput(/channel account started/, 15_000);
  proxy = await startIdentityProxy(gw.port, () => user);
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

async function openChannels(as: string, viewport = { width: 1280, height: 800 }) {
  user = as;
  const opened = await openWatchedPage(browser, `http://127.0.0.1:${proxy.port}/#/channels`, viewport, { scopeRefusals: true });
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

const card = (page: Page, account: string) => page.locator(`li.card[data-account="telegram/${account}"]`);

describe("Control UI: Stop and Start a channel account", { timeout: 90_000 }, () => {
  it("Stop (after the confirm) stops the account and shows why; Start runs it again and it polls Telegram again", async () => {
    const { context, page, problems } = await openChannels(ADMIN, { width: 390, height: 844 });
    const row = card(page, "default");
    // "connected" once Telegram answered getMe, "running" before.
    await row.locator(".badge", { hasText: /running|connected/ }).waitFor(WAIT);
    expect(await row.locator("button", { hasText: "Start" }).count()).toBe(0);
    const confirms: string[] = [];
    page.on("dialog", (dialog) => confirms.push(dialog.message()));

    await row.locator("button", { hasText: "Stop" }).click();
    await row.locator(".badge", { hasText: "stopped" }).waitFor(WAIT);
    expect(confirms).toEqual(["Stop telegram/default? It stays stopped, also across config reloads, until Start or a gateway restart."]);
    expect(await row.locator("p.error").textContent()).toBe(STOP_NOTE);
    expect(await row.getByRole("status").textContent()).toBe("Stopped.");
    expect(await row.locator("button", { hasText: "Stop" }).count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "channels-stopped-phone.png"), fullPage: true });

    const pollsWhenStopped = telegram.getUpdatesCalls;
    await row.locator("button", { hasText: "Start" }).click();
    await row.locator(".badge", { hasText: /running|connected/ }).waitFor(WAIT);
    await row.getByRole("status").filter({ hasText: "Started." }).waitFor(WAIT);
    expect(await row.locator("p.error").count()).toBe(0);
    expect(await row.locator("button", { hasText: "Start" }).count()).toBe(0);
    await row.locator("button", { hasText: "Stop" }).waitFor(WAIT);
    await telegram.waitFor(() => telegram.getUpdatesCalls > pollsWhenStopped, 10_000);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a card's note goes once the account changed elsewhere: a Stop here, a Start from another page", async () => {
    const here = await openChannels(ADMIN);
    const row = card(here.page, "default");
    await row.locator("button", { hasText: "Stop" }).click();
    await row.getByRole("status").filter({ hasText: "Stopped." }).waitFor(WAIT);
    const there = await openChannels(ADMIN);

    const rowThere = card(there.page, "default");
    await rowThere.locator("button", { hasText: "Start" }).click();
    await rowThere.getByRole("status").filter({ hasText: "Started." }).waitFor(WAIT);
    // This page reads the status again after its own next action (on another account).
    await card(here.page, "spare").locator("button", { hasText: "Start" }).click();
    await card(here.page, "spare").getByRole("alert").waitFor(WAIT);
    await row.locator("button", { hasText: "Stop" }).waitFor(WAIT);
    expect(await row.locator("p.notice, p.error").count()).toBe(0);
    expect([...here.problems, ...there.problems]).toEqual([]);
    await here.context.close();
    await there.context.close();
  });

  it("Start on an account the config disables says so in words and leaves it stopped", async () => {
    const { context, page, problems } = await openChannels(ADMIN);
    const row = card(page, "spare");
    // An admin reads the pairing queue (empty here) rather than the read-only line.
    await page.getByText("Nobody is waiting.").waitFor(WAIT);
    expect(await page.locator(".read-only").count()).toBe(0);
    await row.locator("button", { hasText: "Start" }).click();
    await row.getByRole("alert").filter({ hasText: "Not started: the config disables this account (enabled: false)." }).waitFor(WAIT);
    expect(await row.locator(".badge").textContent()).toBe("stopped");
    await row.locator("button", { hasText: "Start" }).waitFor(WAIT);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a read-only user sees the accounts but no Stop or Start, and is told pairing requests need operator.admin instead of a refusal", async () => {
    const { context, page, problems } = await openChannels(VIEWER);
    await card(page, "default")
      .locator(".badge", { hasText: /running|connected/ })
      .waitFor(WAIT);
    await card(page, "spare").locator(".badge", { hasText: "stopped" }).waitFor(WAIT);
    expect(await page.locator("li.card button").count()).toBe(0);
    await page.locator(".read-only", { hasText: "Read-only: seeing and answering pairing requests needs operator.admin." }).waitFor(WAIT);
    expect(await page.getByText("Nobody is waiting.").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a Start the gateway refuses shows its message: the account left the config after the page read the status", async () => {
    const { context, page, problems } = await openChannels(ADMIN);
    const row = card(page, "spare");
    await row.locator("button", { hasText: "Start" }).waitFor(WAIT);
    const reloads = () => gw.output().split('"msg":"config reloaded"').length;
    const before = reloads();
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, {}));
    await waitUntilGateway(gw, () => reloads() > before, 10_000, "the reload without the spare account");
    await row.locator("button", { hasText: "Start" }).click();
    await page.getByRole("alert").filter({ hasText: 'channels.start failed: unknown account "spare" on channel telegram (configured accounts: default)' }).waitFor(WAIT);
    // The status read after the answer no longer has the account.
    await row.waitFor({ state: "detached", ...WAIT });
    expect(problems).toEqual([]);
    await context.close();
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The Control UI's operator actions in a real headless Chromium against the built gateway, a
 * fake Telegram and the fake model: answering pairing requests, managing cron jobs, and editing
 * the config file whole (with the restart config.apply does).
 */

const WAIT = { timeout: 30_000 };
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let browser: Browser;
let operator: TestSocket;
let base: string;
let configPath: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  const stateDir = makeTempDir();
  const channels = { telegram: telegramChannelConfig(telegram) };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels }) } });
  await gw.waitForOutput(/channel account started/, 15_000);
  configPath = path.join(stateDir, "openclaw.json");
  base = `http://127.0.0.1:${gw.port}/`;
  browser = await launchChromium();
  operator = (await openOperator(gw.url, gw.token)).sock;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  operator?.close();
  await browser?.close();
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

/** A signed-in page on `view` (page errors and CSP refusals collected, confirm() accepted). */
async function openView(view: string) {
  const opened = await openWatchedPage(browser, `${base}?token=${encodeURIComponent(gw.token!)}#/${view}`, { width: 1280, height: 900 });
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

const repliesTo = (chatId: number) => telegram.messages(chatId).map((m) => String(m.text));

describe("Control UI operator actions in Chromium", { timeout: 120_000 }, () => {
  it("Channels: Deny drops a pairing request and Approve lets the other sender in", async () => {
    model.setResponder(() => ({ text: "welcome in" }));
    telegram.pushMessage({ chatId: 701, fromId: 701, fromName: "Denied Dan", text: "hi", messageId: 1 });
    telegram.pushMessage({ chatId: 702, fromId: 702, fromName: "Approved Amy", text: "hi", messageId: 2 });
    await telegram.waitFor(() => repliesTo(701).length === 1 && repliesTo(702).length === 1, 15_000);

    const { context, page, problems } = await openView("channels");
    const dan = page.locator(".card", { hasText: "Denied Dan" });
    const amy = page.locator(".card", { hasText: "Approved Amy" });
    await dan.waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "channels-pairing.png"), fullPage: true });
    await dan.locator("button", { hasText: "Deny" }).click();
    await page.locator(".notice", { hasText: "Denied" }).waitFor(WAIT);
    await dan.waitFor({ state: "detached", ...WAIT });
    await amy.locator("button", { hasText: "Approve" }).click();
    await page.locator(".notice", { hasText: "Approved" }).waitFor(WAIT);
    await page.locator(".hint", { hasText: "Nobody is waiting." }).waitFor(WAIT);

    expect((await operator.request("pairing.list", {})).payload.requests).toEqual([]);
    const allowed = JSON.parse(fs.readFileSync(path.join(gw.stateDir, "credentials", "telegram-default-allowFrom.json"), "utf8")).allowFrom;
    expect(allowed).toEqual(["702"]);
    telegram.pushMessage({ chatId: 702, fromId: 702, text: "now?", messageId: 3 });
    await telegram.waitFor(() => repliesTo(702).length === 2, 15_000);
    expect(repliesTo(702)[1]).toBe("welcome in");
    const unknown = await operator.request("pairing.reject", { channel: "telegram", code: "ZZZZZZZZ" });
    expect(unknown.error.message).toContain("no pending pairing request with code ZZZZZZZZ on telegram");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Cron: adds a job, edits it, disables and enables it, runs it now and removes it", async () => {
    const { context, page, problems } = await openView("cron");
    const form = page.locator("form.cron-form");
    await form.waitFor(WAIT);

    // A bad schedule is refused with the gateway's reason; nothing is added.
    await form.getByLabel("Name").fill("morning report");
    await form.getByLabel("Message").fill("write the morning report");
    await form.getByLabel("When").fill("soon");
    await form.locator("button", { hasText: "Add job" }).click();
    await page.locator(".error", { hasText: "every:" }).waitFor(WAIT);
    expect((await operator.request("cron.list", { includeDisabled: true })).payload.jobs).toEqual([]);

    await form.getByLabel("When").fill("2h");
    await form.locator("button", { hasText: "Add job" }).click();
    const card = page.locator(".cron-job", { hasText: "morning report" });
    await card.waitFor(WAIT);
    let [job] = (await operator.request("cron.list", { includeDisabled: true })).payload.jobs;
    expect(job).toMatchObject({
      name: "morning report",
      enabled: true,
      sessionTarget: "isolated",
      schedule: { kind: "every", everyMs: 7_200_000 },
      payload: { kind: "agentTurn", message: "write the morning report" },
    });

    await card.locator("button", { hasText: "Edit" }).click();
    await expect.poll(() => form.getByLabel("When").inputValue(), WAIT).toBe("2h");
    await form.getByLabel("Name").fill("evening report");
    await form.getByLabel("Schedule").selectOption("cron");
    await form.getByLabel("When").fill("0 18 * * *");
    await form.locator("button", { hasText: "Save job" }).click();
    const edited = page.locator(".cron-job", { hasText: "evening report" });
    await edited.waitFor(WAIT);
    [job] = (await operator.request("cron.list", { includeDisabled: true })).payload.jobs;
    expect(job).toMatchObject({ id: job.id, name: "evening report", schedule: { kind: "cron", expr: "0 18 * * *" } });

    await edited.locator("button", { hasText: "Disable" }).click();
    await edited.locator(".badge", { hasText: "disabled" }).waitFor(WAIT);
    expect((await operator.request("cron.get", { id: job.id })).payload.enabled).toBe(false);
    await edited.locator("button", { hasText: "Enable" }).click();
    await edited.locator(".badge", { hasText: "disabled" }).waitFor({ state: "detached", ...WAIT });
    expect((await operator.request("cron.get", { id: job.id })).payload.enabled).toBe(true);

    model.setResponder(() => ({ text: "report done" }));
    const finished = operator.waitFor((f) => f.event === "cron" && f.payload.jobId === job.id && f.payload.action === "finished", 60_000);
    await edited.locator("button", { hasText: "Run now" }).click();
    expect((await finished).payload.status).toBe("ok");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "cron-jobs.png"), fullPage: true });

    await edited.locator("button", { hasText: "Remove" }).click();
    await edited.waitFor({ state: "detached", ...WAIT });
    expect((await operator.request("cron.list", { includeDisabled: true })).payload.jobs).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Config: the file's text is edited whole; an error is shown at its key, Save and apply restarts the gateway and the page reconnects", async () => {
    const { context, page, problems } = await openView("config");
    const text = page.locator("#raw-config");
    await text.waitFor(WAIT);
    const original = JSON.parse(await text.inputValue());
    // Secrets come masked and stay so in the text.
    expect(await text.inputValue()).not.toContain(gw.token!);

    const before = fs.readFileSync(configPath, "utf8");
    await text.fill(JSON.stringify({ ...original, gateway: { ...original.gateway, bind: "everywhere" } }, null, 2));
    await page.locator("button", { hasText: "Save and apply" }).click();
    await page.locator(".raw-issues li", { hasText: "gateway.bind" }).waitFor(WAIT);
    expect(fs.readFileSync(configPath, "utf8")).toBe(before);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "config-raw-error.png"), fullPage: true });

    const changed = { ...original, gateway: { ...original.gateway, controlUi: { allowedOrigins: ["http://ops.example"] } } };
    await text.fill(JSON.stringify(changed, null, 2));
    const shutdown = operator.waitFor((f) => f.event === "shutdown", 30_000);
    await page.locator("button", { hasText: "Save and apply" }).click();
    await page.locator(".notice", { hasText: /The gateway restarts in 2 s to apply gateway\.controlUi\.allowedOrigins/ }).waitFor(WAIT);
    expect((await shutdown).payload.restartExpectedMs).toBeGreaterThan(0);
    await page.locator('[data-testid="connection"].down').waitFor(WAIT);
    await page.locator('[data-testid="connection"].ok').waitFor(WAIT);
    await page.locator("pre.config", { hasText: "http://ops.example" }).waitFor(WAIT);
    expect(JSON.parse(fs.readFileSync(configPath, "utf8")).gateway.controlUi.allowedOrigins).toEqual(["http://ops.example"]);
    expect(gw.proc.exitCode).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});

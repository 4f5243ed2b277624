import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { allTextOf } from "../helpers/model-request.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * The Control UI's Tasks view in a real headless Chromium against the built gateway and the fake
 * model: `agent` runs are tasks; the view lists them, shows a new one live from `task` events,
 * opens one's details, and cancels a held running one.
 */

const WAIT = { timeout: 30_000 };
let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let operator: TestSocket;
let base: string;
/** Model calls whose text says "hold" wait for this. */
let releaseHeld!: () => void;
const held = new Promise<void>((resolve) => (releaseHeld = resolve));

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(async (req) => {
    if (allTextOf(req).includes("hold this run")) {
      await held;
      return { text: "too late" };
    }
    return { text: "the answer is 42" };
  });
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  base = `http://127.0.0.1:${gw.port}/`;
  operator = (await openOperator(gw.url, gw.token)).sock;
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  releaseHeld();
  operator?.close();
  await browser?.close();
  await gw?.stop();
  await model?.close();
});

/** Starts an `agent` run (a `cli` task) in `sessionKey`; its run id. */
async function startAgentRun(sessionKey: string, message: string): Promise<string> {
  const runId = randomUUID();
  const accepted = await operator.request("agent", { message, sessionKey, idempotencyKey: runId });
  expect(accepted.ok, JSON.stringify(accepted.error)).toBe(true);
  return runId;
}

/** The operator's `task` event for `runId` reaching `ledgerStatus`. */
function taskEvent(runId: string, ledgerStatus: string) {
  return operator.waitFor((f) => f.event === "task" && f.payload.action === "upserted" && f.payload.task.runId === runId && f.payload.task.ledgerStatus === ledgerStatus, 30_000);
}

describe("Control UI Tasks view in Chromium", { timeout: 90_000 }, () => {
  it("lists a task, shows a new one live, opens its details, and Cancel ends a held running task as cancelled", async () => {
    const doneRun = await startAgentRun("agent:main:tasks-ui", "what is the answer");
    const done = (await taskEvent(doneRun, "succeeded")).payload.task;

    const { context, page, problems } = await openWatchedPage(browser, `${base}?token=${encodeURIComponent(gw.token!)}#/tasks`, { width: 1280, height: 900 });
    await page.locator('[data-testid="connection"].ok').waitFor(WAIT);
    await page.locator('.nav a[href="#/tasks"][aria-current="page"]').waitFor(WAIT);
    const doneRow = page.locator(`tr[data-task="${done.taskId}"]`);
    await doneRow.locator('[data-status="completed"]').waitFor(WAIT);
    expect(await doneRow.textContent()).toContain("what is the answer");
    expect(await doneRow.textContent()).toContain("agent:main:tasks-ui");
    expect(await doneRow.locator("button.cancel").count()).toBe(0);

    // The same page, never reloaded, shows the next task from its events.
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    const heldRun = await startAgentRun("agent:main:tasks-held", "hold this run please");
    const running = (await taskEvent(heldRun, "running")).payload.task;
    const heldRow = page.locator(`tr[data-task="${running.taskId}"]`);
    await heldRow.locator('[data-status="running"]').waitFor(WAIT);
    expect(await page.locator("tbody tr").first().getAttribute("data-task")).toBe(running.taskId);
    expect(await heldRow.textContent()).toMatch(/\d+s so far/);

    await doneRow.click();
    const detail = page.locator(`.task-detail[data-task="${done.taskId}"]`);
    await detail.waitFor(WAIT);
    expect(await detail.locator("pre.task-text").textContent()).toBe("what is the answer");
    expect(await detail.locator(".task-result").textContent()).toBe("the answer is 42");
    await detail.locator("button.open-chat").waitFor(WAIT);

    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "tasks-desktop.png"), fullPage: true });
    await heldRow.locator("button.cancel").click();
    await heldRow.locator('[data-status="cancelled"]').waitFor(WAIT);
    await page.locator(".notice", { hasText: "Cancelled hold this run please." }).waitFor(WAIT);
    expect(await heldRow.locator("button.cancel").count()).toBe(0);
    expect((await operator.request("tasks.get", { taskId: running.taskId })).payload.task).toMatchObject({ ledgerStatus: "cancelled", error: "cancelled by an operator" });

    // The Active filter leaves the ended tasks out.
    await page.locator("select[name=status]").selectOption("active");
    await page.locator(".hint", { hasText: "No active tasks." }).waitFor(WAIT);
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("at phone width the task rows are cards and a row's Open in Chat opens that session's chat", async () => {
    const runId = await startAgentRun("agent:main:tasks-phone", "a phone task");
    const task = (await taskEvent(runId, "succeeded")).payload.task;
    const { context, page, problems } = await openWatchedPage(browser, `${base}?token=${encodeURIComponent(gw.token!)}#/tasks`, { width: 390, height: 844 });
    await page.locator('[data-testid="connection"].ok').waitFor(WAIT);
    const row = page.locator(`tr[data-task="${task.taskId}"]`);
    await row.waitFor(WAIT);
    expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe("block");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "tasks-phone.png"), fullPage: true });
    await row.locator("button.task-title").click();
    await page.locator(`.task-detail[data-task="${task.taskId}"] button.open-chat`).click();
    await page.locator('.nav a[href="#/chat"][aria-current="page"]').waitFor(WAIT);
    await page.locator(".msg.user", { hasText: "a phone task" }).waitFor(WAIT);
    expect(await page.evaluate(() => localStorage.getItem("openclaw.controlUi.chatSession"))).toBe("agent:main:tasks-phone");
    expect(problems).toEqual([]);
    await context.close();
  });
});

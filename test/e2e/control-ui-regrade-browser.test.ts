import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, type FakeReply, type RecordedRequest, startFakeModelServer, systemPromptOf } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { tracedRun } from "../helpers/traced-run.js";

/**
 * "Grade again" in the Control UI's Review view, in a real headless Chromium against the built
 * gateway: the review judge (the fake model) first gives no verdict, so the run's verdict is an
 * error; the button has the gateway drop it, and the judge grades the run again in the background.
 */

const WAIT = { timeout: 30_000 };
let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let operator: TestSocket;
/** How the fake judge answers; the agent's turns always get "It is 4.". */
let judgeReply: FakeReply = { text: "Perhaps." };

const isJudgeRequest = (r: RecordedRequest) => systemPromptOf(r).startsWith("You grade one run of an AI agent");

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((r) => (isJudgeRequest(r) ? judgeReply : { text: "It is 4." }));
  const stateDir = makeTempDir();
  const review = { sampleRate: 1, highCostTokens: 0, newModelHours: 0, judge: { rubric: "The reply answers the question." } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { diagnostics: { traces: { review } } }) } });
  operator = (await openOperator(gw.url, gw.token)).sock;
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  operator?.close();
  await browser?.close();
  await gw?.stop();
  await model?.close();
});

/** The run's judge verdict as the gateway lists it (undefined until graded). */
async function verdictOf(runId: string): Promise<string | undefined> {
  const res = await operator.request("traces.review.list", { status: "all", runId });
  return (res.payload as { items: { judge?: { verdict: string } }[] }).items[0]?.judge?.verdict;
}

describe("Control UI Review view: grading again", { timeout: 120_000 }, () => {
  it("offers Grade again for a failed verdict; the gateway drops it and its judge grades the run again", async () => {
    const runId = await tracedRun(operator, model, "agent:main:regrade", "what is 2 + 2?");
    await expect.poll(() => verdictOf(runId), WAIT).toBe("error");

    const { context, page, problems } = await openWatchedPage(browser, `http://127.0.0.1:${gw.port}/?token=${encodeURIComponent(gw.token!)}#/review`, { width: 1280, height: 900 });
    const item = page.locator(`li.review-item[data-run="${runId}"]`);
    await item.locator(".judge .verdict", { hasText: "error" }).waitFor(WAIT);
    expect(await item.locator(".judge").textContent()).toContain("the judge gave no PASS/FAIL verdict");

    judgeReply = { text: "PASS - it answers the question." };
    await page.locator("button.regrade", { hasText: "Grade again" }).click();
    expect(await page.locator(".regraded").textContent()).toBe("1 verdict(s) dropped: the judge grades those runs again in the background (Refresh shows its new verdicts).");
    await expect.poll(() => verdictOf(runId), WAIT).toBe("pass");
    await page.locator("button", { hasText: "Refresh" }).click();
    await item.locator(".judge .verdict", { hasText: "pass" }).waitFor(WAIT);
    // Nothing left to grade again: the button goes.
    expect(await page.locator("button.regrade").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "review-regraded.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeModelServer, type FakeModelServer, type FakeReply } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { startIdentityProxy } from "../helpers/identity-proxy.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { tracedRun as runTraced } from "../helpers/traced-run.js";

/**
 * The review queue and run feedback in the Control UI, in a real headless Chromium against the
 * built gateway and the fake model: a costly run queued by high-cost is labelled Fail from the
 * Review view, a reply rated 👎 in the chat is queued by negative-feedback (also the reply to a
 * message steered into a running turn: that turn's run), a run is rated and
 * labelled from its trace. The gateway sits behind an identity-aware proxy so one user signs in
 * with operator.write and another with operator.read only (no buttons).
 */

const WAIT = { timeout: 30_000 };
const WRITER = "ops@example.com";
const VIEWER = "viewer@example.com";
const HIGH_COST = 5_000;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let proxy: { port: number; close(): Promise<void> };
let operator: TestSocket;
let user = WRITER;
const runs = { costly: "", cheap: "" };

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-ui-review-");
  const config = fakeModelConfig(model, stateDir, {
    gateway: {
      mode: "local",
      trustedProxies: ["127.0.0.1"],
      auth: {
        mode: "trusted-proxy",
        trustedProxy: { userHeader: "x-forwarded-user", requiredHeaders: ["x-forwarded-proto"], allowUsers: [WRITER, VIEWER], allowLoopback: true },
        identityScopes: { [WRITER]: ["operator.read", "operator.write"], [VIEWER]: ["operator.read"] },
      },
    },
    // Only the cost rule queues here: no random sample, no new-model window.
    diagnostics: { traces: { review: { sampleRate: 0, newModelHours: 0, highCostTokens: HIGH_COST } } },
  });
  gw = await startGateway({ stateDir, token: null, configFile: { name: "openclaw.json", content: config } });
  proxy = await startIdentityProxy(gw.port, () => user);
  operator = (await openOperator(`ws://127.0.0.1:${proxy.port}/`, undefined)).sock;
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  runs.costly = await tracedRun("agent:main:review-costly", "summarise everything", { text: "A very long summary.", usage: { input: HIGH_COST + 200, output: 40 } });
  runs.cheap = await tracedRun("agent:main:review-cheap", "say hi", { text: "hi", usage: { input: 30, output: 2 } });
}, 90_000);

afterAll(async () => {
  operator?.close();
  await browser?.close();
  await proxy?.close();
  await gw?.stop();
  await model?.close();
});

/** A chat turn answered with `replies`, once its trace is stored. */
const tracedRun = (sessionKey: string, message: string, ...replies: FakeReply[]) => runTraced(operator, model, sessionKey, message, ...replies);

/** The queue as the gateway answers it (over its own WebSocket, not the page's). */
async function reviewList(status: "pending" | "labelled" | "all") {
  const res = await operator.request("traces.review.list", { status });
  expect(res.ok).toBe(true);
  return res.payload as {
    items: { run: { runId: string; sessionKey: string }; reasons: string[]; label?: string; note?: string; feedback?: { rating: string; note?: string } }[];
    counts: { pending: number; labelled: number };
  };
}

async function openAs(who: string, hash: string, viewport = DESKTOP) {
  user = who;
  const opened = await openWatchedPage(browser, `http://127.0.0.1:${proxy.port}/${hash}`, viewport);
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

const reviewRow = (page: Page, runId: string) => page.locator(`li.review-item[data-run="${runId}"]`);

describe("Control UI: the review queue and run feedback", { timeout: 120_000 }, () => {
  it("the Review view lists the costly run with its reason; Fail with a note labels it in place", async () => {
    const { context, page, problems } = await openAs(WRITER, "#/traces");
    await page.locator("a", { hasText: "Review queue" }).click();
    expect(new URL(page.url()).hash).toBe("#/review");
    const row = reviewRow(page, runs.costly);
    await row.waitFor(WAIT);
    expect(await page.locator("li.review-item").count()).toBe(1);
    expect(await row.locator(".chip.reason").allTextContents()).toEqual(["high-cost"]);
    expect(await row.locator(".outcome").textContent()).toBe("ok");
    expect(await row.locator("dd.key").textContent()).toBe("agent:main:review-costly");
    expect(await row.locator("dd.tokens").textContent()).toBe((HIGH_COST + 240).toLocaleString("en-US"));
    expect(await row.locator("dd.label").textContent()).toContain("not labelled");
    expect(await row.locator("dd.judge").count()).toBe(0);
    await page.locator(".review-counts", { hasText: "1 waiting · 0 labelled" }).waitFor(WAIT);

    await row.getByLabel("Label note").fill("went round in circles");
    await row.locator("button", { hasText: "Fail" }).click();
    await row.locator("dd.label .verdict", { hasText: "fail" }).waitFor(WAIT);
    expect(await row.locator("dd.label .note").textContent()).toBe("went round in circles");
    await page.locator(".review-counts", { hasText: "0 waiting · 1 labelled" }).waitFor(WAIT);
    const labelled = await reviewList("labelled");
    expect(labelled.items.map((item) => [item.run.runId, item.label, item.note, item.reasons])).toEqual([[runs.costly, "fail", "went round in circles", ["high-cost"]]]);

    // The filter: nothing waits now; "all" shows the labelled run again.
    await page.getByLabel("Status").selectOption("pending");
    await page.locator("p.hint", { hasText: "No runs wait for review." }).waitFor(WAIT);
    await page.getByLabel("Status").selectOption("all");
    await row.waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "review-queue-labelled-desktop.png"), fullPage: true });

    // A row opens its run's trace, which shows the label.
    await row.locator(`a[href="#/traces/${runs.costly}"]`).click();
    await page.locator("article.trace h3", { hasText: runs.costly }).waitFor(WAIT);
    await page.locator(".run-review .label .verdict", { hasText: "fail" }).waitFor(WAIT);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("on a phone, 👎 in the chat queues the reply's run by negative-feedback right after the reply ends", async () => {
    const sessionKey = "agent:main:main";
    const { context, page, problems } = await openAs(WRITER, "#/chat", PHONE);
    await page.locator(`section.chat[data-following="${sessionKey}"]`).waitFor(WAIT);
    model.enqueue({ text: "The capital of France is Lyon." });
    await page.locator("#chat-input").fill("what is the capital of France?");
    await page.locator("button", { hasText: "Send" }).click();
    const reply = page.locator(".msg.assistant", { hasText: "The capital of France is Lyon." });
    // The buttons come with the transcript read at the final event; the trace is written a moment later.
    await reply.locator("button.rate.down").click(WAIT);
    await reply.locator('button.rate.down[aria-pressed="true"]').waitFor(WAIT);
    expect(await reply.locator(".error").count()).toBe(0);
    const pending = await reviewList("pending");
    const queued = pending.items.find((item) => item.run.sessionKey === sessionKey);
    expect(queued?.reasons).toEqual(["negative-feedback"]);
    expect(queued?.feedback?.rating).toBe("down");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "review-chat-phone.png"), fullPage: true });

    // Its row in the Review view on the phone, 👎 shown.
    await page.goto(`http://127.0.0.1:${proxy.port}/#/review`);
    const row = reviewRow(page, queued!.run.runId);
    await row.waitFor(WAIT);
    expect(await row.locator("dd.feedback").textContent()).toBe("👎");
    expect(await row.locator(".chip.reason").allTextContents()).toEqual(["negative-feedback"]);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "review-queue-feedback-phone.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the run view rates and labels a run nobody queued: 👎 with a note queues it, Pass labels it", async () => {
    const { context, page, problems } = await openAs(WRITER, `#/traces/${runs.cheap}`, PHONE);
    await page.locator("article.trace h3", { hasText: runs.cheap }).waitFor(WAIT);
    expect(await page.locator(".run-review .review-state").count()).toBe(0);
    await page.getByLabel("Feedback note").fill("said hi to the wrong person");
    await page.locator(".run-review button.rate.down").click();
    const state = page.locator(".run-review .review-state");
    await state.locator(".chip.reason", { hasText: "negative-feedback" }).waitFor(WAIT);
    expect(await state.locator(".feedback").textContent()).toBe("👎 said hi to the wrong person");
    await page.locator(".run-review").getByLabel("Label note").fill("fine after all");
    await page.locator(".run-review button", { hasText: "Pass" }).click();
    await state.locator(".label .verdict", { hasText: "pass" }).waitFor(WAIT);
    const item = (await reviewList("all")).items.find((i) => i.run.runId === runs.cheap);
    expect(item).toMatchObject({ label: "pass", note: "fine after all", reasons: ["negative-feedback"], feedback: { rating: "down", note: "said hi to the wrong person" } });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "review-run-phone.png"), fullPage: true });

    // An unknown run: the trace is not there, so no buttons either; the refusal is shown in place.
    await page.goto(`http://127.0.0.1:${proxy.port}/#/traces/no-such-run`);
    await page.locator(".trace-run .error", { hasText: "no trace for run no-such-run" }).waitFor(WAIT);
    expect(await page.locator(".run-review").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a reply to a message steered into a running turn is the running turn's: its 👎 queues that run", async () => {
    const sessionKey = "agent:main:review-steer";
    const [first, steered] = [`first-${randomUUID()}`, `steered-${randomUUID()}`];
    let release!: () => void;
    const holdMidway = new Promise<void>((resolve) => (release = resolve));
    model.enqueue({ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], holdMidway }, { text: "Both questions answered." });
    const asked = model.requests.length;
    expect((await operator.request("chat.send", { sessionKey, message: "first question", idempotencyKey: first })).ok).toBe(true);
    await vi.waitFor(() => expect(model.requests.length).toBeGreaterThan(asked), { timeout: 30_000, interval: 50 });
    const second = await operator.request("chat.send", { sessionKey, message: "and a second one", idempotencyKey: steered });
    expect(second.payload).toMatchObject({ runId: steered, queued: "steered" });
    const ended = operator.waitFor((f) => f.type === "event" && f.event === "chat" && f.payload?.runId === first && f.payload?.state === "final", 30_000);
    release();
    await ended;

    const { context, page, problems } = await openAs(WRITER, "#/chat");
    await page.locator("#session-pick").selectOption(sessionKey);
    const reply = page.locator(".msg.assistant", { hasText: "Both questions answered." });
    await reply.locator("button.rate.down").click(WAIT);
    await reply.locator('button.rate.down[aria-pressed="true"]').waitFor(WAIT);
    expect(await reply.locator(".error").count()).toBe(0);
    const queued = (await reviewList("pending")).items.filter((item) => item.run.sessionKey === sessionKey);
    expect(queued.map((item) => [item.run.runId, item.reasons])).toEqual([[first, ["negative-feedback"]]]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a read-only user sees the queue, the run and the chat without any button", async () => {
    const { context, page, problems } = await openAs(VIEWER, "#/review");
    await page.getByLabel("Status").selectOption("all");
    await reviewRow(page, runs.costly).waitFor(WAIT);
    expect(await page.locator("li.review-item").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator("li.review-item button").count()).toBe(0);

    await page.goto(`http://127.0.0.1:${proxy.port}/#/traces/${runs.costly}`);
    await page.locator(".run-review .label .verdict", { hasText: "fail" }).waitFor(WAIT);
    expect(await page.locator(".run-review button").count()).toBe(0);

    await page.goto(`http://127.0.0.1:${proxy.port}/#/chat`);
    await page.locator(".msg.assistant", { hasText: "The capital of France is Lyon." }).waitFor(WAIT);
    expect(await page.locator(".msg.assistant button.rate").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

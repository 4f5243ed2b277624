import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type FakeReply } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { tracedRun as runTraced } from "../helpers/traced-run.js";

/**
 * The Control UI's Traces view in a real headless Chromium against the built gateway and the fake
 * model: runs listed from traces.list, one opened as a tree from traces.get (from its row and by
 * a deep link), the session filter, capped texts, an unknown run, markup shown as text, and the
 * traces searched by words and by meaning (the fake model server's embeddings).
 */

const WAIT = { timeout: 30_000 };
const XSS = `<img src=x onerror="window.__xss='trace'">`;
const LONG_REPLY = "a long answer ".repeat(200).trim();
let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let operator: TestSocket;
let base: string;
/** The runs of beforeAll: a tool call, a long reply in another session, a refused model request. */
const runs = { tool: "", long: "", failed: "" };

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "notes.txt"), "the launch code is blue\n");
  // Meaning search on: every trace is embedded in the background with the fake embeddings.
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake-embed" } } };
  const content = fakeModelConfig(model, stateDir, { memory, diagnostics: { traces: { search: { embeddings: true } } } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  base = `http://127.0.0.1:${gw.port}/`;
  operator = (await openOperator(gw.url, gw.token)).sock;
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });

  runs.tool = await tracedRun(
    "agent:main:traces-ui",
    `what is in notes.txt? ${XSS}`,
    { thinking: "I should read the notes first", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { input: 120, output: 12 } },
    { text: `The code is blue. ${XSS}`, usage: { input: 160, output: 6 } },
  );
  runs.long = await tracedRun("agent:main:traces-other", "say a lot", { text: LONG_REPLY });
  runs.failed = await tracedRun("agent:main:traces-other", "this fails", {
    status: 400,
    body: { error: { message: "model refuses this request", type: "invalid_request_error" } },
  });
}, 90_000);

afterAll(async () => {
  operator?.close();
  await browser?.close();
  await gw?.stop();
  await model?.close();
});

/** A chat turn answered with `replies`, once its trace is stored. */
const tracedRun = (sessionKey: string, message: string, ...replies: FakeReply[]) => runTraced(operator, model, sessionKey, message, ...replies);

/** A signed-in page on `hash` (page errors and CSP refusals collected). */
async function openTraces(hash: string) {
  const opened = await openWatchedPage(browser, `${base}?token=${encodeURIComponent(gw.token!)}${hash}`, { width: 1280, height: 900 });
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

/** The run shown as a tree: waits for its heading. */
async function openedRun(page: Page, runId: string) {
  const trace = page.locator("article.trace", { has: page.locator("h3", { hasText: runId }) });
  await trace.waitFor(WAIT);
  return trace;
}

describe("Control UI Traces view in Chromium", { timeout: 120_000 }, () => {
  it("lists runs newest first with their outcome, filters by session, and opens a run as a tree in the order things happened", async () => {
    const { context, page, problems } = await openTraces("#/traces");
    const row = (runId: string) => page.locator(`tr[data-run="${runId}"]`);
    await row(runs.tool).waitFor(WAIT);
    expect(await page.locator("tr[data-run]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run")))).toEqual([runs.failed, runs.long, runs.tool]);
    expect(await row(runs.tool).locator(".outcome").textContent()).toBe("ok");
    expect(await row(runs.failed).locator(".outcome").textContent()).toBe("error");
    const cells = await row(runs.tool).locator("td").allTextContents();
    expect(cells.slice(4).map((c) => c.trim())).toEqual(["chat", "agent:main:traces-ui", "fake/fake-model", "280 / 18", "2 / 1"]);

    // A bare key is the default agent's session, as the gateway reads it.
    await page.getByLabel("Session").fill("traces-ui");
    await page.locator("button", { hasText: "Refresh" }).click();
    await row(runs.long).waitFor({ state: "detached", ...WAIT });
    expect(await page.locator("tr[data-run]").count()).toBe(1);

    await row(runs.tool).locator("a").click();
    expect(new URL(page.url()).hash).toBe(`#/traces/${runs.tool}`);
    const trace = await openedRun(page, runs.tool);
    expect(await trace.locator(".trace-tree > li").evaluateAll((items) => items.map((li) => li.classList[1]))).toEqual([
      "input",
      "model-call",
      "tool-call",
      "model-call",
      "thinking",
      "output",
      "outcome",
    ]);
    const calls = (await trace.locator(".model-call .line").allTextContents()).map((line) => line.replace(/\s+/g, " ").trim());
    expect(calls).toEqual([
      expect.stringMatching(/^model fake\/fake-model \[fake:config\] · [\d.]+m?s · ttft [\d.]+m?s · in 120 \/ out 12 · toolUse$/),
      expect.stringMatching(/^model fake\/fake-model \[fake:config\] · [\d.]+m?s · ttft [\d.]+m?s · in 160 \/ out 6 · stop$/),
    ]);
    const tool = trace.locator(".tool-call");
    expect(await tool.locator(".tool-name").textContent()).toBe("read");
    expect(await tool.locator(".beneath").textContent()).toContain("policy: allowed");
    expect(await tool.locator(".result pre").textContent()).toContain("the launch code is blue");
    await tool.locator("details.args summary").click();
    expect(JSON.parse((await tool.locator("details.args pre").textContent())!)).toEqual({ path: "notes.txt" });
    await trace.locator(".thinking summary").click();
    expect(await trace.locator(".thinking pre").textContent()).toBe("I should read the notes first");
    await trace.locator(".system-prompt summary").click();
    expect((await trace.locator(".system-prompt pre").textContent())!.length).toBeGreaterThan(100);
    // The session's first run was given no earlier conversation.
    await trace.locator(".trace-history summary").click();
    expect((await trace.locator(".trace-history summary").textContent())!.trim()).toBe("Conversation before this run (0 messages)");
    expect(await trace.locator(".trace-history .hint").textContent()).toBe("The run was given no earlier messages.");

    // The input and the reply carried markup: it is shown as text, and no element was made of it.
    expect(await trace.locator(".step.input pre").textContent()).toBe(`what is in notes.txt? ${XSS}`);
    expect(await trace.locator(".step.output pre").textContent()).toBe(`The code is blue. ${XSS}`);
    expect(await trace.locator(".step.outcome").textContent()).toContain("ok");
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "traces-run.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a deep link opens its run directly; a long reply is capped until shown whole; a failed run shows its error; an unknown run the gateway's message", async () => {
    const { context, page, problems } = await openTraces(`#/traces/${runs.long}`);
    const long = await openedRun(page, runs.long);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("article.trace") !== null), WAIT).toBe(true);
    const reply = long.locator(".step.output pre");
    expect(await reply.textContent()).toBe(`${LONG_REPLY.slice(0, 1500)}…`);
    await long.locator(".step.output button", { hasText: `Show all ${LONG_REPLY.length.toLocaleString("en-US")} characters` }).click();
    expect(await reply.textContent()).toBe(LONG_REPLY);
    await long.locator(".step.output button", { hasText: "Show less" }).click();
    expect(await reply.textContent()).toBe(`${LONG_REPLY.slice(0, 1500)}…`);
    expect(await page.locator(`tr[data-run="${runs.long}"]`).getAttribute("aria-current")).toBe("true");

    // Another run from its row: the tree is replaced, folded texts start folded again.
    await page.locator(`tr[data-run="${runs.failed}"] a`).click();
    const failed = await openedRun(page, runs.failed);
    expect(await failed.locator("h3 .outcome").textContent()).toBe("error");
    expect(await failed.locator(".step.outcome .error").textContent()).toContain("model refuses this request");
    expect(await failed.locator(".model-call .error").textContent()).toContain("model refuses this request");
    expect(await failed.locator(".model-call .failover").first().textContent()).toMatch(/^failover: fake\/fake-model .*model refuses this request$/);
    // Its session's earlier exchange is the conversation it was sent, the long reply capped.
    await failed.locator(".trace-history summary").click();
    expect((await failed.locator(".trace-history summary").textContent())!.trim()).toBe("Conversation before this run (2 messages)");
    expect(await failed.locator(".history-message .kind").allTextContents()).toEqual(["user", "assistant"]);
    expect(await failed.locator(".history-message pre").first().textContent()).toBe("say a lot");
    expect(await failed.locator(".history-message pre").last().textContent()).toBe(`${LONG_REPLY.slice(0, 1500)}…`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "traces-failed-run.png"), fullPage: true });

    await page.goto(`${base}#/traces/no-such-run`);
    await page.locator(".trace-run .error", { hasText: "no trace for run no-such-run" }).waitFor(WAIT);
    expect(await page.locator("article.trace").count()).toBe(0);
    await page.locator(`tr[data-run="${runs.tool}"]`).waitFor(WAIT);

    await page.locator("a", { hasText: "All runs" }).click();
    await page.locator(".trace-run").waitFor({ state: "detached", ...WAIT });
    expect(new URL(page.url()).hash).toBe("#/traces");
    expect(await page.locator(".nav a[aria-current=page]").textContent()).toBe("Traces");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("searches the traces by their words, and by meaning for a run that shares no word with the query; each hit opens its run", async () => {
    // The background embedder has caught up with the three runs.
    await expect.poll(async () => (await operator.request("traces.search", { query: "deployment", mode: "meaning" })).payload?.coverage, WAIT).toEqual({ embedded: 3, traces: 3 });
    const { context, page, problems } = await openTraces("#/traces");
    const search = page.getByRole("search", { name: "Search traces" });
    const hits = page.locator(".trace-hits");
    await search.getByLabel("Search").fill("launch");
    await search.locator("button", { hasText: "Search" }).click();
    await hits.locator(".hit").first().waitFor(WAIT);
    expect(await hits.locator(".hit").evaluateAll((items) => items.map((li) => li.getAttribute("data-run")))).toEqual([runs.tool]);
    expect(await hits.locator(".snippet").textContent()).toContain("launch code is blue");
    expect(await hits.locator("[role=status]").textContent()).toMatch(/1 run\(s\) with “launch”/);

    // "deployment" shares no word with any run; by meaning, the run about a launch comes first.
    await search.getByLabel("Search").fill("deployment");
    await search.getByLabel("By meaning").check();
    await search.locator("button", { hasText: "Search" }).click();
    await expect.poll(() => hits.locator("[role=status]").textContent(), WAIT).toMatch(/run\(s\) about “deployment” · 3 of 3 traces embedded so far/);
    expect(await hits.locator(".hit").first().getAttribute("data-run")).toBe(runs.tool);
    expect(await hits.locator(".hit").first().locator(".score").textContent()).toMatch(/^similarity 0\.\d\d$/);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "traces-search.png"), fullPage: true });

    // A query with no word: the gateway's refusal, and no stale results.
    await search.getByLabel("By meaning").uncheck();
    await search.getByLabel("Search").fill("!!!");
    await search.locator("button", { hasText: "Search" }).click();
    await page.locator(".error", { hasText: "query has no word to search for" }).waitFor(WAIT);
    expect(await hits.count()).toBe(0);

    await search.getByLabel("Search").fill("launch");
    await search.locator("button", { hasText: "Search" }).click();
    await hits.locator(`.hit[data-run="${runs.tool}"] a`).click();
    await openedRun(page, runs.tool);
    expect(new URL(page.url()).hash).toBe(`#/traces/${runs.tool}`);
    await search.locator("button", { hasText: "Clear" }).click();
    expect(await hits.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

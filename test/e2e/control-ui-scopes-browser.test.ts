import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage } from "../helpers/browser.js";
import { startIdentityProxy } from "../helpers/identity-proxy.js";
import { allTextOf } from "../helpers/model-request.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * The Control UI offers only what the connection may do, in a real headless Chromium: behind an
 * identity-aware proxy one user holds operator.admin, one operator.write and one operator.read
 * only. Each sees the same config, cron job, sessions, running task, goal and progress card; the
 * buttons and forms of methods the gateway would refuse them are absent, a line says which scope
 * they need, and no request the pages send is refused for a missing scope.
 */

const WAIT = { timeout: 30_000 };
const ADMIN = "ops@example.com";
const WRITER = "writer@example.com";
const VIEWER = "viewer@example.com";
const SESSION = "agent:main:scoped";
/** A session whose agent waits on a question (ask_user). */
const ASKED = "agent:main:asked";

let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let proxy: { port: number; close(): Promise<void> };
let operator: TestSocket;
let user = ADMIN;
let heldTaskId: string;
/** Model calls whose text says "hold this run" wait for this. */
let releaseHeld!: () => void;
const held = new Promise<void>((resolve) => (releaseHeld = resolve));

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(async (req) => {
    if (allTextOf(req).includes("hold this run")) {
      await held;
      return { text: "too late" };
    }
    if (allTextOf(req).includes("ask me where")) {
      const questions = [{ id: "target", header: "Target", question: "Where should I deploy?", options: [{ label: "Staging" }, { label: "Production" }] }];
      return { toolCalls: [{ name: "ask_user", arguments: { questions } }] };
    }
    return { text: "on it" };
  });
  const stateDir = makeTempDir("openclaw-ui-scopes-");
  const config = fakeModelConfig(model, stateDir, {
    gateway: {
      mode: "local",
      trustedProxies: ["127.0.0.1"],
      auth: {
        mode: "trusted-proxy",
        trustedProxy: { userHeader: "x-forwarded-user", requiredHeaders: ["x-forwarded-proto"], allowUsers: [ADMIN, WRITER, VIEWER], allowLoopback: true },
        identityScopes: { [ADMIN]: ["operator.read", "operator.write", "operator.admin"], [WRITER]: ["operator.read", "operator.write"], [VIEWER]: ["operator.read"] },
      },
    },
  });
  gw = await startGateway({ stateDir, token: null, configFile: { name: "openclaw.json", content: config } });
  proxy = await startIdentityProxy(gw.port, () => user);
  user = ADMIN;
  operator = (await openOperator(`ws://127.0.0.1:${proxy.port}`, undefined)).sock;
  await seed();
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  releaseHeld();
  operator?.close();
  await browser?.close();
  await proxy?.close();
  await gw?.stop();
  await model?.close();
});

async function ok(method: string, params: Record<string, unknown>) {
  const res = await operator.request(method, params, 30_000);
  expect(res.ok, `${method}: ${JSON.stringify(res.error)}`).toBe(true);
  return res.payload;
}

/** A cron job, a session with a goal and a progress card, a question waiting for an answer, and a task held running. */
async function seed(): Promise<void> {
  const asked = operator.waitFor((f) => f.event === "question.requested" && f.payload.sessionKey === ASKED, 30_000);
  await ok("chat.send", { sessionKey: ASKED, message: "ask me where", idempotencyKey: randomUUID() });
  await asked;
  await ok("cron.add", { name: "nightly", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "check" } });
  await ok("chat.send", { sessionKey: SESSION, message: "/goal Ship the release", idempotencyKey: randomUUID() });
  await ok("progressCard.put", { sessionKey: SESSION, plan: [{ step: "Build it", status: "in_progress" }] });
  const runId = randomUUID();
  await ok("agent", { message: "hold this run", sessionKey: "agent:main:held", idempotencyKey: runId });
  const running = await operator.waitFor(
    (f) => f.event === "task" && f.payload.action === "upserted" && f.payload.task.runId === runId && f.payload.task.ledgerStatus === "running",
    30_000,
  );
  heldTaskId = running.payload.task.taskId;
}

async function openAs(who: string) {
  user = who;
  const opened = await openWatchedPage(browser, `http://127.0.0.1:${proxy.port}/#/config`, { width: 1280, height: 900 }, { scopeRefusals: true });
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

async function go(page: Page, view: string): Promise<void> {
  await page.locator(`.nav a[href="#/${view}"]`).click();
  await page.locator(`.nav a[href="#/${view}"][aria-current="page"]`).waitFor(WAIT);
}

const readOnlyHints = (page: Page) => page.locator(".read-only").allTextContents();

async function openScopedChat(page: Page): Promise<void> {
  await go(page, "chat");
  await page.locator("#session-pick").selectOption(SESSION);
  await page.getByTestId("goal-pill").waitFor(WAIT);
  await page.getByTestId("progress-card").waitFor(WAIT);
}

describe("Control UI views offer what the connection's scopes allow", { timeout: 120_000 }, () => {
  it("operator.admin: every edit form and button shows, and no read-only line", async () => {
    const { context, page, problems } = await openAs(ADMIN);
    await page.locator('form[aria-label="Edit one key"]').waitFor(WAIT);
    const raw = page.locator("form.raw-config");
    expect(await raw.getByRole("button").allTextContents()).toEqual(["Save", "Save and apply"]);

    await go(page, "cron");
    const job = page.locator("li.cron-job", { hasText: "nightly" });
    await job.waitFor(WAIT);
    expect((await job.getByRole("button").allTextContents()).map((t) => t.trim())).toEqual(["Run now", "Edit", "Disable", "Remove"]);
    expect(await page.locator("form.cron-form").count()).toBe(1);

    await go(page, "tasks");
    await page.locator(`tr[data-task="${heldTaskId}"] button.cancel`).waitFor(WAIT);

    await go(page, "sessions");
    const row = page.locator(`tr[data-session="${SESSION}"]`);
    await row.waitFor(WAIT);
    expect(await row.locator("td.actions button").allTextContents()).toEqual(["Reset", "Compact", "Delete"]);
    expect(await row.locator("form").count()).toBe(1);

    await go(page, "approvals");
    await page.getByText("Nothing is waiting for approval.").waitFor(WAIT);

    await go(page, "agents");
    await page.locator("form.agent-form").waitFor(WAIT);
    // The form shows before agents.list has answered: wait for the agent's card itself.
    await page.locator('.agent[data-agent="main"] .actions button').first().waitFor(WAIT);
    expect(await page.locator('.agent[data-agent="main"] .actions button').allTextContents()).toEqual(["Edit", "Delete"]);

    await openScopedChat(page);
    expect(
      await page
        .getByTestId("goal-pill")
        .getByRole("button", { name: /Edit goal|Pause|Clear/ })
        .count(),
    ).toBe(3);
    await page.getByTestId("progress-card-refresh").waitFor(WAIT);
    await page.locator("#chat-input").waitFor(WAIT);
    expect(await page.getByRole("button", { name: "New session" }).count()).toBe(1);
    await page.locator("#session-pick").selectOption(ASKED);
    const question = page.getByTestId("question");
    await question.waitFor(WAIT);
    expect(await question.getByRole("button").allTextContents()).toEqual(["Answer", "Skip"]);
    expect(await readOnlyHints(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("operator.read: the same data with no edit form or button, each view saying which scope its actions need", async () => {
    const { context, page, problems } = await openAs(VIEWER);
    await page.locator("pre.config").waitFor(WAIT);
    expect(await page.locator('form[aria-label="Edit one key"], form.raw-config').count()).toBe(0);
    expect(await readOnlyHints(page)).toEqual(["Read-only: editing the config needs operator.admin."]);

    await go(page, "cron");
    const job = page.locator("li.cron-job", { hasText: "nightly" });
    await job.waitFor(WAIT);
    expect(await job.getByRole("button").count()).toBe(0);
    expect(await page.locator("form.cron-form").count()).toBe(0);
    expect(await readOnlyHints(page)).toEqual(["Read-only: adding, editing, running and removing jobs needs operator.admin."]);

    await go(page, "tasks");
    await page.locator(`tr[data-task="${heldTaskId}"] [data-status="running"]`).waitFor(WAIT);
    expect(await page.locator("button.cancel").count()).toBe(0);
    expect(await readOnlyHints(page)).toEqual(["Read-only: cancelling a task needs operator.write."]);

    await go(page, "sessions");
    const row = page.locator(`tr[data-session="${SESSION}"]`);
    await row.waitFor(WAIT);
    expect(await page.locator("table button, table form").count()).toBe(0);
    expect(await row.locator("td").nth(1).textContent()).toBe("fake-model / default");
    expect(await readOnlyHints(page)).toEqual(["Read-only: setting a session's model or thinking needs operator.write; reset, compact and delete need operator.admin."]);

    await go(page, "approvals");
    expect(await readOnlyHints(page)).toEqual(["Read-only: seeing and answering exec approvals needs operator.approvals."]);
    expect(await page.getByText("Nothing is waiting for approval.").count()).toBe(0);

    await go(page, "agents");
    await page.locator('.agent[data-agent="main"]').waitFor(WAIT);
    expect(await page.locator(".agent button, form.agent-form").count()).toBe(0);

    await openScopedChat(page);
    expect(await page.getByTestId("goal-objective").textContent()).toBe("Ship the release");
    expect(
      await page
        .getByTestId("goal-pill")
        .getByRole("button", { name: /Edit goal|Pause|Resume|Clear/ })
        .count(),
    ).toBe(0);
    expect(await page.getByTestId("progress-card-refresh").count()).toBe(0);
    expect(await page.locator("#chat-input, form.composer").count()).toBe(0);
    expect(await page.getByRole("button", { name: "New session" }).count()).toBe(0);
    expect(await readOnlyHints(page)).toEqual(["Read-only: sending messages needs operator.write."]);
    // No view shows an error.
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("operator.read: the views with nothing to change read without a refusal", async () => {
    const { context, page, problems } = await openAs(VIEWER);
    await go(page, "logs");
    await page.locator("ol.log-lines li").first().waitFor(WAIT);
    await go(page, "traces");
    await page.locator("table.trace-list tr[data-run]").first().waitFor(WAIT);
    await go(page, "usage");
    await page.locator('section[aria-label="Usage"] table').first().waitFor(WAIT);
    await go(page, "memory");
    await page.locator('section[aria-label="Memory"] :is(dl.kv, .unavailable, [role="alert"])').first().waitFor(WAIT);
    expect(await page.locator('section[aria-label="Memory"] [role="alert"]').count()).toBe(0);
    await go(page, "channels");
    await page.locator('section[aria-label="Channels"] .hint').waitFor(WAIT);
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("operator.write: chat, Cancel and a session's model and thinking, but no admin action", async () => {
    const { context, page, problems } = await openAs(WRITER);
    await page.locator("pre.config").waitFor(WAIT);
    expect(await page.locator('form[aria-label="Edit one key"], form.raw-config').count()).toBe(0);

    await go(page, "cron");
    await page.locator("li.cron-job", { hasText: "nightly" }).waitFor(WAIT);
    expect(await page.locator("li.cron-job button, form.cron-form").count()).toBe(0);

    // What is offered works: the gateway takes the writer's Cancel and thinking level.
    await go(page, "tasks");
    await page.locator(`tr[data-task="${heldTaskId}"] button.cancel`).click();
    await page.locator(`tr[data-task="${heldTaskId}"] [data-status="cancelled"]`).waitFor(WAIT);

    await go(page, "sessions");
    const row = page.locator(`tr[data-session="${SESSION}"]`);
    await row.locator("form").waitFor(WAIT);
    expect(await row.locator("td.actions button").count()).toBe(0);
    expect(await readOnlyHints(page)).toEqual(["Reset, compact and delete need operator.admin."]);
    await row.getByLabel(`Thinking for ${SESSION}`).selectOption("low");
    await row.locator("form button", { hasText: "Save" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Updated ${SESSION}` })
      .waitFor(WAIT);
    const listed = await ok("sessions.list", {});
    expect(listed.sessions.find((s: { key: string }) => s.key === SESSION).thinkingLevel).toBe("low");

    await openScopedChat(page);
    await page.locator("#chat-input").waitFor(WAIT);
    expect(
      await page
        .getByTestId("goal-pill")
        .getByRole("button", { name: /Edit goal|Pause|Clear/ })
        .count(),
    ).toBe(3);
    await page.getByTestId("progress-card-refresh").waitFor(WAIT);
    // Questions need operator.questions: the one waiting in the other session is not offered.
    await page.locator("#session-pick").selectOption(ASKED);
    await page.locator(".msg.user", { hasText: "ask me where" }).waitFor(WAIT);
    expect(await page.getByTestId("question").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage, SCREENSHOT_DIR } from "../helpers/browser.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * The Control UI's Agents view in a real headless Chromium against the built gateway: an agent
 * is created, edited and deleted through its forms (agents.create / update / delete), and what
 * the gateway refuses is shown where it was asked, with nothing changed.
 */

const WAIT = { timeout: 30_000 };
let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let operator: TestSocket;
let base: string;
let configPath: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: {
      providers: {
        fake: {
          baseUrl: `${model.url}/v1`,
          apiKey: "sk-fake",
          api: "openai-completions",
          models: [
            { id: "fake-model", contextWindow: 120000, maxTokens: 4096 },
            { id: "other-model", contextWindow: 120000, maxTokens: 4096 },
          ],
        },
      },
    },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config, null, 2) } });
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
  await model?.close();
});

type Listed = { id: string; name?: string; workspace?: string; model?: { primary: string }; identity?: { emoji?: string } };
const listed = async () => (await operator.request("agents.list", {})).payload.agents as Listed[];
const fileText = () => fs.readFileSync(configPath, "utf8");

async function openAgents(viewport = { width: 1280, height: 900 }) {
  const opened = await openWatchedPage(browser, `${base}?token=${encodeURIComponent(gw.token!)}#/agents`, viewport);
  await opened.page.locator('[data-testid="connection"].ok').waitFor(WAIT);
  return opened;
}

describe("Control UI agents in Chromium", { timeout: 120_000 }, () => {
  it("creates an agent through the form; a relative workspace is refused with the gateway's reason and the form keeps its values", async () => {
    const { context, page, problems } = await openAgents();
    const form = page.locator("form.agent-form", { has: page.locator("h3", { hasText: "New agent" }) });
    await form.waitFor(WAIT);
    await expect
      .poll(() => form.getByLabel("Model").locator("option").allTextContents(), WAIT)
      .toEqual(["default (the gateway's default model)", "fake/fake-model", "fake/other-model"]);
    expect(await form.getByLabel("Workspace").getAttribute("placeholder")).toBe("empty: <state>/workspace-<id>");

    const before = fileText();
    await form.getByLabel("Name").fill("Ops");
    await form.getByLabel("Workspace").fill("ws-rel");
    await form.getByLabel("Model").selectOption("fake/other-model");
    await form.getByLabel("Emoji").fill("🛠");
    await form.locator("button", { hasText: "Create agent" }).click();
    await form.locator(".error", { hasText: 'workspace "ws-rel" is relative' }).waitFor(WAIT);
    expect(fileText()).toBe(before);
    expect((await listed()).map((a) => a.id)).toEqual(["main"]);
    expect(await form.getByLabel("Name").inputValue()).toBe("Ops");
    expect(await form.getByLabel("Model").inputValue()).toBe("fake/other-model");

    const workspace = path.join(gw.stateDir, "ws-ops");
    await form.getByLabel("Workspace").fill(workspace);
    await form.locator("button", { hasText: "Create agent" }).click();
    const card = page.locator('.agent[data-agent="ops"]');
    await card.waitFor(WAIT);
    await card.locator("dd", { hasText: "fake/other-model" }).waitFor(WAIT);
    await page.locator(".notice", { hasText: "Created agent ops." }).waitFor(WAIT);
    // A created agent empties the form for the next one.
    expect(await form.getByLabel("Name").inputValue()).toBe("");
    expect(await form.locator(".error").count()).toBe(0);
    expect((await listed()).find((a) => a.id === "ops")).toMatchObject({ name: "Ops", workspace, model: { primary: "fake/other-model" }, identity: { emoji: "🛠" } });
    expect(JSON.parse(fileText()).agents.entries.ops).toEqual({ name: "Ops", workspace, model: "fake/other-model", identity: { emoji: "🛠" } });
    expect(fs.existsSync(path.join(workspace, "AGENTS.md"))).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "agents-created.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("edits an agent in its row: name, workspace and the default model (its own cleared); a refusal is shown in the row", async () => {
    const { context, page, problems } = await openAgents();
    const card = page.locator('.agent[data-agent="ops"]');
    await card.waitFor(WAIT);
    await card.locator("button", { hasText: "Edit" }).click();
    const form = card.locator("form.agent-form");
    await expect.poll(() => form.getByLabel("Model").inputValue(), WAIT).toBe("fake/other-model");

    const before = fileText();
    await form.getByLabel("Workspace").fill("elsewhere");
    await form.locator("button", { hasText: "Save agent" }).click();
    await form.locator(".error", { hasText: 'workspace "elsewhere" is relative' }).waitFor(WAIT);
    expect(fileText()).toBe(before);
    expect(await form.getByLabel("Workspace").inputValue()).toBe("elsewhere");

    const workspace = path.join(gw.stateDir, "ws-ops");
    await form.getByLabel("Workspace").fill(workspace);
    await form.getByLabel("Name").fill("Operations");
    await form.getByLabel("Model").selectOption("");
    await form.locator("button", { hasText: "Save agent" }).click();
    await card.locator("strong", { hasText: "Operations" }).waitFor(WAIT);
    await card.locator("dd", { hasText: /^default$/ }).waitFor(WAIT);
    expect(await card.locator("form.agent-form").count()).toBe(0);
    const ops = (await listed()).find((a) => a.id === "ops")!;
    expect(ops).toMatchObject({ name: "Operations", workspace, identity: { emoji: "🛠" } });
    expect(ops.model).toBeUndefined();
    expect(JSON.parse(fileText()).agents.entries.ops).toEqual({ name: "Operations", workspace, identity: { emoji: "🛠" } });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("deletes an agent after a confirm that says its files are kept; the only agent's delete shows the gateway's refusal", async () => {
    const { context, page, problems } = await openAgents({ width: 390, height: 844 });
    const asked: string[] = [];
    page.on("dialog", (dialog) => asked.push(dialog.message()));
    const card = page.locator('.agent[data-agent="ops"]');
    await card.waitFor(WAIT);
    // Phone width: the cards and the form fit the screen, nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "agents-phone.png"), fullPage: true });

    await card.locator("button", { hasText: "Delete" }).click();
    await card.waitFor({ state: "detached", ...WAIT });
    expect(asked).toEqual(["Delete agent Operations (ops)? Its workspace and session files are kept on disk."]);
    expect((await listed()).map((a) => a.id)).toEqual(["main"]);
    expect(JSON.parse(fileText()).agents.entries.ops).toBeUndefined();
    expect(fs.existsSync(path.join(gw.stateDir, "ws-ops", "AGENTS.md"))).toBe(true);

    const main = page.locator('.agent[data-agent="main"]');
    await main.locator("button", { hasText: "Delete" }).click();
    await main.locator(".error", { hasText: 'Agent "main" is the only agent and cannot be deleted.' }).waitFor(WAIT);
    expect((await listed()).map((a) => a.id)).toEqual(["main"]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

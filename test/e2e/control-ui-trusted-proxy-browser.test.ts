import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { launchChromium, openWatchedPage } from "../helpers/browser.js";
import { startIdentityProxy } from "../helpers/identity-proxy.js";

/**
 * The Control UI behind an identity-aware proxy (`gateway.auth.mode: "trusted-proxy"`): Chromium
 * opens the proxy's address, the proxy names the user, and the page signs in without a token with
 * the scopes `identityScopes` grants; a user the gateway does not allow sees the refusal.
 */

const WAIT = { timeout: 30_000 };

let model: FakeModelServer;
let gw: GatewayProcess;
let browser: Browser;
let proxy: { port: number; close(): Promise<void> };
let user: string | undefined = "ops@example.com";

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-ui-proxy-");
  const config = fakeModelConfig(model, stateDir, {
    gateway: {
      mode: "local",
      trustedProxies: ["127.0.0.1"],
      auth: {
        mode: "trusted-proxy",
        trustedProxy: { userHeader: "x-forwarded-user", requiredHeaders: ["x-forwarded-proto"], allowUsers: ["ops@example.com"], allowLoopback: true },
        identityScopes: { "ops@example.com": ["operator.read", "operator.write", "operator.admin"] },
      },
    },
  });
  gw = await startGateway({ stateDir, token: null, configFile: { name: "openclaw.json", content: config } });
  proxy = await startIdentityProxy(gw.port, () => user);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await gw?.stop();
  await model?.close();
});

describe("Control UI behind a trusted proxy", { timeout: 90_000 }, () => {
  it("signs the proxy's user in without a token, and chats", async () => {
    user = "ops@example.com";
    model.enqueue({ text: "hello through the proxy" });
    const { context, page, problems } = await openWatchedPage(browser, `http://127.0.0.1:${proxy.port}/`, { width: 1280, height: 800 });
    await page.locator('[data-testid="connection"].ok').waitFor(WAIT);
    expect(await page.locator("#token").count()).toBe(0);
    await page.locator("#chat-input").fill("hi");
    await page.locator("#chat-input").press("Enter");
    await page.getByText("hello through the proxy").first().waitFor(WAIT);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the gateway's refusal to a user outside allowUsers", async () => {
    user = "mallory@example.com";
    const { context, page } = await openWatchedPage(browser, `http://127.0.0.1:${proxy.port}/`, { width: 1280, height: 800 });
    await page.getByTestId("sign-in-error").waitFor(WAIT);
    expect(await page.getByTestId("sign-in-error").textContent()).toContain("not in gateway.auth.trustedProxy.allowUsers");
    await context.close();
  });
});

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Debian's `chromium` package (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Screenshots of the browser tests land here (gitignored). */
export const SCREENSHOT_DIR = path.resolve("test-output/control-ui");

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

/**
 * A page in a fresh browser profile that collects page errors and CSP refusals into `problems`
 * (tests assert it stays empty); `confirm()` dialogs are accepted. With `scopeRefusals`, every
 * answer the gateway refused for a missing scope is a problem too.
 */
export async function openWatchedPage(
  browser: Browser,
  url: string,
  viewport = { width: 1280, height: 800 },
  opts: { scopeRefusals?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && /Content Security Policy|Refused to/.test(msg.text())) problems.push(msg.text());
  });
  page.on("dialog", (dialog) => void dialog.accept());
  if (opts.scopeRefusals) {
    page.on("websocket", (ws) =>
      ws.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" && payload.includes('"MISSING_SCOPE"')) problems.push(`refused: ${payload}`);
      }),
    );
  }
  await page.goto(url);
  return { context, page, problems };
}

/**
 * A TCP relay in front of the gateway: the browser talks to it, and `cut()` drops every open
 * connection at once, as a flaky network or a sleeping laptop would.
 */
export async function startRelay(targetPort: number): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

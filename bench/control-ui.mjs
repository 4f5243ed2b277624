// The Control UI: its bundle size, how fast the chat view paints in Chromium, how long a streamed
// answer takes from the gateway to the page, and what serving the UI adds to the gateway's RSS.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { startInstantModel } from "./lib/instant-model.mjs";
import { freePort, HOST, makeTempDir, REPO_ROOT, spawnGateway } from "./lib/spawn-gateway.mjs";
import { median, MiB, percentile, round, sleep } from "./lib/util.mjs";

const TOKEN = "bench-control-ui";
const UI_DIR = path.join(REPO_ROOT, "dist", "control-ui");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PAINT_RUNS = 5;
const STREAM_TURNS = 30;
const RSS_RUNS = 3;
/** Every built file fetched this many times: the route's buffers and caches are warm when RSS is read. */
const STATIC_ROUNDS = 50;

export async function measureControlUi() {
  const bundle = measureBundle();
  const staticRoute = await measureStaticRouteRss();
  const browser = fs.existsSync(CHROMIUM) ? await measureInBrowser() : { error: `no Chromium at ${CHROMIUM} (apt-get install -y chromium)` };
  return { bundle, staticRoute, ...browser };
}

/** What a first visit downloads, gzipped: the page, its script and its stylesheet. */
function measureBundle() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.(gz|br)$/.test(entry.name)) files.push(full);
    }
  };
  walk(UI_DIR);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    raw += bytes.length;
    gzip += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.length, rawKiB: round(raw / 1024, 1), gzipKiB: round(gzip / 1024, 1) };
}

async function startUiGateway(label, { enabled = true, modelPort } = {}) {
  const stateDir = makeTempDir(label);
  const port = await freePort();
  const config = { gateway: { auth: { token: TOKEN }, controlUi: { enabled } }, agents: { defaults: { workspace: path.join(stateDir, "workspace") } } };
  if (modelPort) {
    config.agents.defaults.model = "fake/fake-model";
    config.models = { providers: { fake: { baseUrl: `http://${HOST}:${modelPort}/v1`, apiKey: "sk-bench", api: "openai-completions" } } };
  }
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  const gw = spawnGateway({ label, stateDir, port });
  await gw.waitForReady(15_000);
  return { gw, port };
}

/** RSS with the UI served and fetched, minus RSS with it switched off (same requests, which 404): medians of fresh gateways. */
async function measureStaticRouteRss() {
  const files = fs
    .readdirSync(path.join(UI_DIR, "assets"))
    .filter((f) => !/\.(gz|br)$/.test(f))
    .map((f) => `/assets/${f}`);
  const paths = ["/", ...files];
  const sample = async (enabled) => {
    const { gw, port } = await startUiGateway(`control-ui-rss-${enabled ? "on" : "off"}`, { enabled });
    try {
      for (let i = 0; i < STATIC_ROUNDS; i++) {
        await Promise.all(paths.map(async (p) => (await fetch(`http://${HOST}:${port}${p}`, { headers: { "accept-encoding": i % 2 ? "br" : "gzip" } })).arrayBuffer()));
      }
      await sleep(500);
      return gw.rssBytes();
    } finally {
      await gw.stop();
    }
  };
  const on = [];
  const off = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    off.push(await sample(false));
    on.push(await sample(true));
  }
  return { runs: RSS_RUNS, rssOffMiB: round(median(off) / MiB, 1), rssOnMiB: round(median(on) / MiB, 1), addedMiB: round((median(on) - median(off)) / MiB, 2) };
}

/** First paint of the chat view, and gateway emit → page for the first streamed text of a turn. */
async function measureInBrowser() {
  const { chromium } = await import("playwright-core");
  const model = await startInstantModel({ reply: () => "streamed answer for the bench" });
  const { gw, port } = await startUiGateway("control-ui-browser", { modelPort: model.port });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  const base = `http://${HOST}:${port}/`;
  try {
    const firstContentfulPaint = [];
    const chatViewReady = [];
    for (let i = 0; i < PAINT_RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}?token=${TOKEN}`);
      await page.locator('[data-testid="connection"].ok').waitFor({ timeout: 30_000 });
      await page.locator(".chat .composer").waitFor({ timeout: 30_000 });
      const timing = await page.evaluate(() => ({ fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime, ready: performance.now() }));
      if (i > 0) {
        // The first visit also warms the gateway's file cache; later ones are what a person sees.
        firstContentfulPaint.push(timing.fcp);
        chatViewReady.push(timing.ready);
      }
      await context.close();
    }

    const context = await browser.newContext();
    await context.addInitScript(() => {
      const w = window;
      w.__bench = { emitted: {}, shown: [] };
      const Native = w.WebSocket;
      w.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          this.addEventListener("message", (m) => {
            const f = JSON.parse(m.data);
            if (f.event === "chat" && f.payload.state === "delta" && !(f.payload.runId in w.__bench.emitted)) w.__bench.emitted[f.payload.runId] = f.payload.message.timestamp;
          });
        }
      };
      new MutationObserver(() => {
        const live = document.querySelector('[data-testid="streaming"] .md');
        if (live && !live.dataset.benchSeen) {
          live.dataset.benchSeen = "1";
          requestAnimationFrame(() => w.__bench.shown.push(Date.now()));
        }
      }).observe(document, { subtree: true, childList: true });
    });
    const page = await context.newPage();
    await page.goto(`${base}?token=${TOKEN}`);
    await page.locator('[data-testid="connection"].ok').waitFor({ timeout: 30_000 });
    for (let i = 0; i < STREAM_TURNS; i++) {
      await page.locator("#chat-input").fill(`turn ${i}`);
      await page.locator("#chat-input").press("Enter");
      await page.waitForFunction((n) => window.__bench.shown.length > n, i, { timeout: 30_000 });
      await page.locator('[data-testid="streaming"]').waitFor({ state: "detached", timeout: 30_000 });
    }
    const { emitted, shown } = await page.evaluate(() => window.__bench);
    const lags = Object.values(emitted)
      .map((t, i) => shown[i] - t)
      .filter((v) => Number.isFinite(v));
    await context.close();
    return {
      firstContentfulPaintMs: round(median(firstContentfulPaint), 1),
      chatViewReadyMs: round(median(chatViewReady), 1),
      streamedTextToPageMs: { turns: lags.length, p50: round(percentile(lags, 50), 1), p95: round(percentile(lags, 95), 1) },
    };
  } finally {
    await browser.close();
    await gw.stop();
    await new Promise((resolve) => model.server.close(resolve));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureControlUi(), null, 2));
}

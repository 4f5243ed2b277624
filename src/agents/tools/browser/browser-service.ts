import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { BrowserEgressProxy } from "./browser-egress-proxy.js";
import type { BrowserSettings } from "./browser-setup.js";
import { browserProfileDir, browserUserDataDir } from "./browser-setup.js";
import { TabLog } from "./browser-tab-log.js";

/** OpenClaw's cap on the managed browser's page tabs when a tab is opened. */
export const MAX_BROWSER_TABS = 8;
const LAUNCH_TIMEOUT_MS = 60_000;

/** A browser failure the tool reports as is: its message names the cause and the fix, never a secret. */
export class BrowserError extends Error {
  constructor(
    readonly kind: "start" | "tab" | "tabs-full" | "stopped",
    message: string,
  ) {
    super(message);
  }
}

/** One tab as the tool names it: a stable id (`t1`, `t2`, …), and which session opened it with `open`. */
export interface BrowserTab {
  targetId: string;
  page: Page;
  /** The session whose `open` created it; undefined for tabs the browser opened itself (its first tab, popups). */
  openedBy: string | undefined;
  log: TabLog;
}

interface Running {
  context: BrowserContext;
  proxy: BrowserEgressProxy;
  headless: boolean;
}

/** Headless when configured so, or when unset and a Linux host has no display (OpenClaw's fallback). */
export function resolveHeadless(
  configured: boolean | undefined,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { headless: boolean } | { problem: string } {
  const noDisplay = platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY;
  if (configured === undefined) return { headless: noDisplay };
  if (configured === false && noDisplay) {
    return { problem: "browser.headless is false but this host has no display (DISPLAY and WAYLAND_DISPLAY are unset); set browser.headless to true or leave it unset" };
  }
  return { headless: configured };
}

/**
 * The gateway's one OpenClaw-managed browser (profile `openclaw`): a Chromium on its own
 * user-data dir under the state dir, launched on first use, its tabs shared by every session,
 * every request it makes going through the egress proxy. Closed by `stop` and at gateway shutdown.
 */
export class BrowserService {
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private readonly tabs: BrowserTab[] = [];
  private current: BrowserTab | undefined;
  private nextTabNumber = 1;

  constructor(
    readonly settings: BrowserSettings,
    readonly stateDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get userDataDir(): string {
    return browserUserDataDir(this.stateDir);
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  headless(): boolean | undefined {
    return this.running?.headless;
  }

  /** The egress proxy's recent refusals (empty when the browser is not running). */
  blockedRequests(): readonly { url: string; address?: string; at: number }[] {
    return this.running?.proxy.blocked ?? [];
  }

  /** Starts the browser when it is not running; concurrent callers share one launch. */
  async start(): Promise<void> {
    if (this.running) return;
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    await this.starting;
  }

  private async launch(): Promise<Running> {
    const headless = resolveHeadless(this.settings.headless, this.env);
    if ("problem" in headless) throw new BrowserError("start", headless.problem);
    // Chromium's own files outside the user-data dir (crash reports under ~/.config/chromium, caches)
    // go under the profile's folder too: XDG_CONFIG_HOME and XDG_CACHE_HOME point there.
    const profileDir = browserProfileDir(this.stateDir);
    const xdg = { XDG_CONFIG_HOME: path.join(profileDir, "config"), XDG_CACHE_HOME: path.join(profileDir, "cache") };
    for (const dir of [this.userDataDir, ...Object.values(xdg)]) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
    }
    // Loaded on first use only: gateways that never drive a browser never load Playwright.
    const { chromium } = await import("playwright-core");
    const proxy = new BrowserEgressProxy(this.settings.ssrfPolicy);
    const port = await proxy.start();
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(this.userDataDir, {
        executablePath: this.settings.executablePath,
        headless: headless.headless,
        chromiumSandbox: !this.settings.noSandbox,
        timeout: LAUNCH_TIMEOUT_MS,
        // The gateway closes the browser itself at shutdown; Playwright must not act on its signals.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        // Managed Chrome launches direct of the gateway's HTTP(S)_PROXY: only the egress proxy is used.
        env: { ...withoutProxyVariables(this.env), ...xdg },
        // Playwright passes --proxy-server and answers the proxy's credential challenge. The bypass
        // list is `<-loopback>`: Chromium otherwise sends loopback past any proxy, and the policy
        // must see loopback too.
        proxy: { server: `http://127.0.0.1:${port}`, bypass: "<-loopback>", ...proxy.credentials },
        args: ["--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--dns-prefetch-disable", "--no-first-run", "--no-default-browser-check"],
      });
    } catch (err) {
      await proxy.close();
      throw new BrowserError("start", launchFailure(err, this.settings));
    }
    const running: Running = { context, proxy, headless: headless.headless };
    context.on("page", (page) => this.adopt(page, undefined));
    context.on("close", () => {
      if (this.running === running) this.forget();
      void proxy.close();
    });
    for (const page of context.pages()) this.adopt(page, undefined);
    this.running = running;
    return running;
  }

  private adopt(page: Page, openedBy: string | undefined): BrowserTab {
    const known = this.tabs.find((tab) => tab.page === page);
    if (known) {
      known.openedBy ??= openedBy;
      return known;
    }
    const tab: BrowserTab = { targetId: `t${this.nextTabNumber++}`, page, openedBy, log: new TabLog(page) };
    this.tabs.push(tab);
    this.current ??= tab;
    page.on("close", () => {
      const index = this.tabs.indexOf(tab);
      if (index >= 0) this.tabs.splice(index, 1);
      if (this.current === tab) this.current = this.tabs.at(-1);
    });
    return tab;
  }

  private forget(): void {
    this.running = undefined;
    this.tabs.length = 0;
    this.current = undefined;
  }

  /** Closes the browser (and its process) and the proxy; nothing when it is not running. */
  async stop(): Promise<void> {
    const running = this.running ?? (await this.starting?.catch(() => undefined));
    if (!running) return;
    this.forget();
    await running.context.close().catch(() => undefined);
    await running.proxy.close();
  }

  listTabs(): readonly BrowserTab[] {
    return this.tabs;
  }

  currentTab(): BrowserTab | undefined {
    return this.current;
  }

  /** The tab `targetId` names, else the current one; throws when there is none. */
  tab(targetId: string | undefined): BrowserTab {
    if (targetId) {
      const tab = this.tabs.find((t) => t.targetId === targetId);
      if (!tab) throw new BrowserError("tab", `no tab ${targetId} (open tabs: ${this.tabs.map((t) => t.targetId).join(", ") || "none"})`);
      return tab;
    }
    if (!this.current) throw new BrowserError("tab", "no tab is open");
    return this.current;
  }

  focus(targetId: string): BrowserTab {
    const tab = this.tab(targetId);
    this.current = tab;
    return tab;
  }

  /** A new tab owned by `sessionKey` (at most MAX_BROWSER_TABS page tabs), made current. */
  async openTab(sessionKey: string | undefined): Promise<BrowserTab> {
    await this.start();
    if (this.tabs.length >= MAX_BROWSER_TABS) {
      throw new BrowserError("tabs-full", `${this.tabs.length} tabs are open, the most this browser keeps (${MAX_BROWSER_TABS}); close one first`);
    }
    const page = await this.running!.context.newPage();
    const tab = this.adopt(page, sessionKey);
    this.current = tab;
    return tab;
  }

  async closeTab(targetId: string): Promise<void> {
    const tab = this.tab(targetId);
    await tab.page.close();
  }

  /**
   * Closes the tabs `sessionKey` opened with `open` (OpenClaw's session tab cleanup, for a session
   * reset or deleted); tabs it did not open (the first tab, popups, other sessions') stay. They
   * leave the tab list at once; returns how many there were.
   */
  closeTabsOpenedBy(sessionKey: string): number {
    const owned = this.tabs.filter((tab) => tab.openedBy === sessionKey);
    for (const tab of owned) {
      this.tabs.splice(this.tabs.indexOf(tab), 1);
      if (this.current === tab) this.current = this.tabs.at(-1);
      void tab.page.close().catch(() => undefined);
    }
    return owned.length;
  }
}

/** Proxy variables are dropped so the browser's traffic never bypasses its egress proxy's policy. */
function withoutProxyVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !/^(https?|all|no)_proxy$/i.test(key)) out[key] = value;
  }
  return out;
}

/** A launch failure in one line with its fix: Playwright's own message carries its whole launch log. */
function launchFailure(err: unknown, settings: BrowserSettings): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/no-sandbox|running as root/i.test(message) && !settings.noSandbox) {
    return `Chromium (${settings.executablePath}) would not start with its sandbox (as root, Chromium needs --no-sandbox); set browser.noSandbox to true if the gateway must run as root`;
  }
  if (/missing X server|\$DISPLAY|cannot open display/i.test(message)) {
    return `Chromium (${settings.executablePath}) needs a display to run headed; set browser.headless to true`;
  }
  const first = message.split("\n").find((line) => line.trim()) ?? "unknown error";
  return `Chromium (${settings.executablePath}) did not start: ${first.replace(/^browserType\.launchPersistentContext:\s*/, "").slice(0, 300)}`;
}

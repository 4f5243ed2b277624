import { describe, expect, it } from "vitest";
import { createBrowserTool } from "../../../src/agents/tools/browser.js";
import { type BrowserArgs, checkBrowserArgs, filterSnapshotLines } from "../../../src/agents/tools/browser/browser-params.js";
import { BrowserService } from "../../../src/agents/tools/browser/browser-service.js";
import { STRICT_BROWSER_SSRF_POLICY } from "../../../src/agents/tools/browser/browser-ssrf.js";
import { makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

/** The checks after the schema's: arguments as the model sends them, typed loosely. */
const check = (args: Record<string, unknown>) => checkBrowserArgs(args as BrowserArgs);

describe("browser arguments", () => {
  it("each supported action runs with what it needs", () => {
    for (const args of [
      { action: "status" },
      { action: "open", url: "https://example.com" },
      { action: "navigate", url: "https://example.com", targetId: "t2" },
      { action: "focus", targetId: "t1" },
      { action: "close", targetId: "t1" },
      { action: "snapshot", query: "sign in", maxChars: 4000 },
      { action: "text", selector: "article", maxChars: 40_000 },
      { action: "act", kind: "click", ref: "e5" },
      { action: "act", kind: "type", ref: "e5", text: "hi", submit: true },
      { action: "act", kind: "fill", ref: "e5", text: "" },
      { action: "act", kind: "press", key: "Enter" },
      { action: "act", kind: "select", ref: "e9", values: ["b"] },
      { action: "act", kind: "wait", textGone: "Loading" },
      { action: "screenshot", fullPage: true },
      { action: "requests", filter: "fetch", limit: 20, clear: true },
      { action: "tabs", profile: "openclaw", target: "host" },
    ]) {
      expect(check(args), JSON.stringify(args)).toEqual({ ok: true, action: args.action });
    }
  });

  it("names the missing argument", () => {
    expect(check({ action: "open" })).toMatchObject({ ok: false, field: "url" });
    expect(check({ action: "navigate", url: "  " })).toMatchObject({ ok: false, field: "url" });
    expect(check({ action: "close" })).toMatchObject({ ok: false, field: "targetId" });
    expect(check({ action: "act" })).toMatchObject({ ok: false, field: "kind" });
    expect(check({ action: "act", kind: "click" })).toMatchObject({ ok: false, field: "ref", problem: expect.stringContaining("from snapshot") });
    expect(check({ action: "act", kind: "type", ref: "e1" })).toMatchObject({ ok: false, field: "text" });
    expect(check({ action: "act", kind: "press" })).toMatchObject({ ok: false, field: "key" });
    expect(check({ action: "act", kind: "select", ref: "e1", values: [] })).toMatchObject({ ok: false, field: "values" });
    expect(check({ action: "act", kind: "wait" })).toMatchObject({ ok: false, field: "kind", problem: "act wait needs timeMs, text or textGone" });
    expect(check({ action: "text", maxChars: 40_001 })).toMatchObject({ ok: false, field: "maxChars" });
    expect(check({ action: "snapshot", maxChars: 100_001 })).toMatchObject({ ok: false, field: "maxChars" });
  });

  it("OpenClaw's actions, act kinds, profiles and targets this gateway lacks are refused as not supported, never ignored", () => {
    for (const action of ["pdf", "emulate", "doctor", "profiles", "upload", "download", "dialog", "console"]) {
      expect(check({ action })).toMatchObject({ ok: false, field: "action", unsupported: true, problem: expect.stringContaining("is not supported by this gateway's browser") });
    }
    expect(check({ action: "act", kind: "evaluate" })).toMatchObject({ ok: false, field: "kind", unsupported: true });
    expect(check({ action: "act", kind: "drag", ref: "e1" })).toMatchObject({ ok: false, field: "kind", unsupported: true });
    expect(check({ action: "tabs", profile: "user" })).toMatchObject({ ok: false, field: "profile", unsupported: true });
    expect(check({ action: "tabs", target: "sandbox" })).toMatchObject({ ok: false, field: "target", unsupported: true });
    expect(check({ action: "tabs", target: "node" })).toMatchObject({ ok: false, field: "target", unsupported: true });
  });

  it("a snapshot query keeps the lines holding every word, in any case, refs and all", () => {
    const snapshot = ['- heading "Sign in" [ref=e1]', '- button "Sign in with email" [ref=e2]', '- link "Help" [ref=e3]'].join("\n");
    expect(filterSnapshotLines(snapshot, "SIGN email")).toEqual({ text: '- button "Sign in with email" [ref=e2]', matches: 1 });
    expect(filterSnapshotLines(snapshot, "sign")).toMatchObject({ matches: 2 });
    expect(filterSnapshotLines(snapshot, "nothing")).toEqual({ text: "", matches: 0 });
  });
});

describe("the browser tool before any browser work", () => {
  /** A workspace and a service whose Chromium cannot start, made per test (the helper removes its dirs after each). */
  function fixture() {
    const workspace = makeTempDir();
    const service = new BrowserService({ executablePath: "/nonexistent/chromium", headless: true, noSandbox: true, ssrfPolicy: STRICT_BROWSER_SSRF_POLICY }, makeTempDir());
    const run = async (args: Record<string, unknown>, ctx = makeContext(workspace, { browser: service })) =>
      JSON.parse(textOf(await createBrowserTool("see").execute(args as never, ctx, neverAborted)));
    return { workspace, service, run };
  }

  it("is owner-only", () => {
    expect(createBrowserTool("see").ownerOnly).toBe(true);
  });

  it("without the gateway's browser, and in a sandboxed run, it refuses", async () => {
    const { workspace, service, run } = fixture();
    expect(await run({ action: "status" }, makeContext(workspace))).toMatchObject({ error: "BROWSER_UNAVAILABLE" });
    const sandboxed = { ...makeContext(workspace, { browser: service }), sandbox: {} as never };
    expect(await run({ action: "open", url: "https://example.com" }, sandboxed)).toMatchObject({
      error: "BROWSER_UNAVAILABLE",
      message: expect.stringContaining("no sandbox browser is supported here"),
    });
  });

  it("refuses what is not supported and what the policy forbids without starting a browser", async () => {
    const { service, run } = fixture();
    expect(await run({ action: "pdf" })).toMatchObject({ error: "BROWSER_NOT_SUPPORTED" });
    expect(await run({ action: "act", kind: "evaluate" })).toMatchObject({ error: "BROWSER_NOT_SUPPORTED" });
    expect(await run({ action: "open" })).toMatchObject({ error: "INVALID_ARGUMENT", message: "url: open needs url" });
    expect(await run({ action: "open", url: "http://169.254.169.254/latest/meta-data/" })).toMatchObject({
      error: "PRIVATE_ADDRESS_BLOCKED",
      message: expect.stringContaining("169.254.169.254, a private, loopback or link-local address"),
    });
    expect(await run({ action: "navigate", url: "chrome://settings" })).toMatchObject({
      error: "PRIVATE_ADDRESS_BLOCKED",
      message: expect.stringContaining("chrome: URLs are not loaded"),
    });
    expect(service.isRunning()).toBe(false);
  });

  it("a stopped run's call does not run", async () => {
    const { workspace, service } = fixture();
    const stopped = new AbortController();
    stopped.abort();
    const result = await createBrowserTool("see").execute({ action: "start" } as never, makeContext(workspace, { browser: service }), stopped.signal);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: "ABORTED" });
    expect(service.isRunning()).toBe(false);
  });

  it("a browser that cannot start says why, in one line", async () => {
    const { service, run } = fixture();
    const result = await run({ action: "start" });
    expect(result).toMatchObject({ error: "BROWSER_START_FAILED", message: expect.stringContaining("Chromium (/nonexistent/chromium) did not start") });
    expect(result.message).not.toContain("\n");
    expect(service.isRunning()).toBe(false);
  });
});

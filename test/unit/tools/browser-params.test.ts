import { describe, expect, it } from "vitest";
import { type BrowserArgs, checkBrowserArgs, filterSnapshotLines } from "../../../src/agents/tools/browser/browser-params.js";

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

import fs from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, spawnCli } from "../helpers/gateway-process.js";
import { nodeAtLeast } from "../helpers/node24.js";

// Node's compile cache came with Node 22.1: the commands run under that Node or Node 24.
const node = nodeAtLeast(22, 1, "the compile cache");

/** What lies under `dir`, as paths relative to it; [] when it does not exist. */
function entries(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

// The commands inherit this process's environment (cleanEnv): none of the cache's variables, so
// each command's cache goes where its own environment below says (this file runs in its own process).
delete process.env.XDG_CACHE_HOME;
delete process.env.NODE_COMPILE_CACHE;
delete process.env.NODE_DISABLE_COMPILE_CACHE;

/** A command's environment: its own home and state dir. */
function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: makeTempDir("openclaw-cc-home-"), OPENCLAW_STATE_DIR: makeTempDir("openclaw-cc-state-"), ...extra };
}

describe("the CLI's compile cache", () => {
  it("is written under ~/.cache/openclaw/compile-cache, owner-only, and a command run from it answers the same", async () => {
    const env = isolatedEnv();
    const cacheDir = path.join(env.HOME!, ".cache", "openclaw", "compile-cache");
    const first = await runCli(["agents", "list", "--json"], env, 20_000, node);
    expect(first.code, first.output).toBe(0);
    const cached = entries(cacheDir);
    // One folder per Node version, architecture and flags, holding the compiled chunks.
    expect(cached.filter((entry) => entry.includes(path.sep)).length).toBeGreaterThan(3);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    const second = await runCli(["agents", "list", "--json"], env, 20_000, node);
    expect(second.code, second.output).toBe(0);
    expect(JSON.parse(second.output)).toEqual(JSON.parse(first.output));
  });

  it("follows $XDG_CACHE_HOME", async () => {
    const cacheHome = makeTempDir("openclaw-cc-xdg-");
    const env = isolatedEnv({ XDG_CACHE_HOME: cacheHome });
    expect((await runCli(["--version"], env, 20_000, node)).code).toBe(0);
    expect(entries(path.join(cacheHome, "openclaw", "compile-cache")).length).toBeGreaterThan(0);
    expect(fs.readdirSync(env.HOME!)).toEqual([]);
  });

  it("is not written with NODE_DISABLE_COMPILE_CACHE=1", async () => {
    const env = isolatedEnv({ NODE_DISABLE_COMPILE_CACHE: "1" });
    const res = await runCli(["--version"], env, 20_000, node);
    expect(res.code).toBe(0);
    expect(fs.readdirSync(env.HOME!)).toEqual([]);
  });

  it("is not used by a gateway running in the foreground, which lives on with what it loaded", async () => {
    const env = isolatedEnv({ OPENCLAW_GATEWAY_TOKEN: "cc-token" });
    const gateway = spawnCli(["gateway", "run", "--port", "0"], env, undefined, node);
    await gateway.waitForOutput(/"msg":"gateway listening"/, 15_000);
    expect(await gateway.stop("SIGTERM")).toBe(0);
    expect(fs.readdirSync(env.HOME!)).toEqual([]);
  });

  it("is not made by a Node without one (before 22.1): the command runs as before", async () => {
    const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";
    const env = isolatedEnv();
    const res = await runCli(["--version"], env);
    expect(res.code).toBe(0);
    // This suite's own Node: Node 20 makes none; a newer one makes it as above.
    expect(fs.readdirSync(env.HOME!)).toEqual(hasCache ? [".cache"] : []);
  });
});

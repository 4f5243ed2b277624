import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileCacheDir, runsGatewayHere } from "../../../src/cli/compile-cache.js";

describe("runsGatewayHere", () => {
  it("is the foreground gateway: gateway run, and gateway alone or with options (run is its default)", () => {
    expect(runsGatewayHere(["gateway", "run", "--port", "1"])).toBe(true);
    expect(runsGatewayHere(["gateway"])).toBe(true);
    expect(runsGatewayHere(["gateway", "--port", "1"])).toBe(true);
  });

  it("is not another gateway command or another command", () => {
    expect(runsGatewayHere(["gateway", "status"])).toBe(false);
    expect(runsGatewayHere(["gateway", "start"])).toBe(false);
    expect(runsGatewayHere(["agents", "list"])).toBe(false);
    expect(runsGatewayHere([])).toBe(false);
  });
});

describe("compileCacheDir", () => {
  it("is under $XDG_CACHE_HOME, else ~/.cache", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" })).toBe(path.join("/x/cache", "openclaw", "compile-cache"));
    expect(compileCacheDir({ XDG_CACHE_HOME: "  ", HOME: "/home/u" })).toBe(path.join("/home/u", ".cache", "openclaw", "compile-cache"));
  });
});

import { describe, expect, it } from "vitest";
import { resolveSandboxSettings } from "../../../src/agents/sandbox/sandbox-settings.js";
import { parseSandboxBind } from "../../../src/config/sandbox-binds.js";
import { validateConfig } from "../../../src/config/validate.js";

describe("sandbox.docker.binds", () => {
  it("host:sandbox[:ro|rw], read-write without a mode", () => {
    expect(parseSandboxBind("/srv/data:/mnt/data:ro")).toEqual({ source: "/srv/data", target: "/mnt/data", writable: false });
    expect(parseSandboxBind("/srv/data/:/mnt/data")).toEqual({ source: "/srv/data", target: "/mnt/data", writable: true });
  });

  it("refuses what would hand the sandbox the host, naming the entry", () => {
    const problems = [
      "/etc:/mnt/etc",
      "/var/run/docker.sock:/var/run/docker.sock",
      "/:/host",
      "/home:/h",
      "/proc/1:/p",
      "relative:/x",
      "/srv:/usr/local",
      "/srv:/mnt:rx",
      "/srv/../etc:/x",
    ].map((spec) => (parseSandboxBind(spec) as { problem?: string }).problem);
    expect(problems.every((p) => typeof p === "string")).toBe(true);
    expect(() => validateConfig({ agents: { defaults: { sandbox: { docker: { binds: ["/etc:/mnt/etc"] } } } } }, {})).toThrow(
      /agents\.defaults\.sandbox\.docker\.binds\[0\].*\/etc may not be mounted into a sandbox/s,
    );
    expect(() => validateConfig({ agents: { entries: { ops: { sandbox: { docker: { binds: ["/srv:/tmp/x"] } } } } } }, {})).toThrow(
      /agents\.entries\.ops\.sandbox\.docker\.binds\[0\].*sandbox's own system directory/s,
    );
  });

  it("an agent's binds add to the defaults', except in a shared sandbox", () => {
    const raw = (scope: string) => ({
      agents: { defaults: { sandbox: { scope, docker: { binds: ["/srv/a:/mnt/a:ro"] } } }, entries: { ops: { sandbox: { docker: { binds: ["/srv/b:/mnt/b"] } } } } },
    });
    const targets = (scope: string) => resolveSandboxSettings(validateConfig(raw(scope), {}).config, "ops").binds.map((b) => b.target);
    expect(targets("session")).toEqual(["/mnt/a", "/mnt/b"]);
    expect(targets("shared")).toEqual(["/mnt/a"]);
  });
});

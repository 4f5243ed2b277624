import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyProfileEnv, scanRootOptions } from "../../../src/cli/root-options.js";

describe("scanRootOptions", () => {
  it("takes --dev, --profile and --no-color out wherever they stand, and leaves what follows -- alone", () => {
    expect(scanRootOptions(["--log-level", "debug", "--dev", "gateway", "run", "--no-color"])).toEqual({
      ok: true,
      args: ["--log-level", "debug", "gateway", "run"],
      profile: "dev",
      noColor: true,
    });
    expect(scanRootOptions(["acp", "client", "--profile=work", "--", "agent", "--dev", "--profile", "x", "--no-color"])).toEqual({
      ok: true,
      args: ["acp", "client", "--", "agent", "--dev", "--profile", "x", "--no-color"],
      profile: "work",
      noColor: false,
    });
    expect(scanRootOptions(["--profile", "dev", "--dev", "status"])).toMatchObject({ ok: true, profile: "dev", args: ["status"] });
  });

  it("refuses names that are not names, a missing name, --dev with another profile and gateway's own --dev", () => {
    for (const args of [["--profile", "a/b"], ["--profile=a\\b"], ["--profile=.."], ["--profile", "x".repeat(65)]]) {
      expect(scanRootOptions(args)).toMatchObject({ ok: false, error: expect.stringContaining("Invalid --profile") });
    }
    expect(scanRootOptions(["status", "--profile"])).toMatchObject({ ok: false, error: expect.stringContaining("--profile requires a value") });
    expect(scanRootOptions(["--profile", "--json"])).toMatchObject({ ok: false, error: expect.stringContaining("--profile requires a value") });
    expect(scanRootOptions(["--dev", "--profile", "work"])).toMatchObject({ ok: false, error: expect.stringContaining("Cannot combine --dev with --profile") });
    expect(scanRootOptions(["--profile", "work", "--dev"])).toMatchObject({ ok: false, error: expect.stringContaining("Cannot combine --dev with --profile") });
    expect(scanRootOptions(["--log-level", "info", "gateway", "--dev"])).toMatchObject({ ok: false, error: expect.stringContaining("openclaw --dev gateway") });
  });
});

describe("applyProfileEnv", () => {
  const home = path.resolve("/home/u");

  it("sets the profile's state dir, and 19001 for dev unless a port is set", () => {
    const env: NodeJS.ProcessEnv = { HOME: home };
    applyProfileEnv("dev", env);
    expect(env).toEqual({ HOME: home, OPENCLAW_PROFILE: "dev", OPENCLAW_STATE_DIR: path.join(home, ".openclaw-dev"), OPENCLAW_GATEWAY_PORT: "19001" });
    const withPort: NodeJS.ProcessEnv = { HOME: home, OPENCLAW_GATEWAY_PORT: "20000" };
    applyProfileEnv("dev", withPort);
    expect(withPort.OPENCLAW_GATEWAY_PORT).toBe("20000");
  });

  it("keeps an explicit state dir and config path, replaces those of the profile being left", () => {
    const explicit: NodeJS.ProcessEnv = { HOME: home, OPENCLAW_STATE_DIR: "/srv/oc", OPENCLAW_CONFIG_PATH: "/srv/oc.yaml" };
    applyProfileEnv("work", explicit);
    expect(explicit).toMatchObject({ OPENCLAW_STATE_DIR: "/srv/oc", OPENCLAW_CONFIG_PATH: "/srv/oc.yaml", OPENCLAW_PROFILE: "work" });

    // A process started under --profile a (its env names a's dir and config), run again with --profile b.
    const inherited: NodeJS.ProcessEnv = {
      HOME: home,
      OPENCLAW_PROFILE: "a",
      OPENCLAW_STATE_DIR: path.join(home, ".openclaw-a"),
      OPENCLAW_CONFIG_PATH: path.join(home, ".openclaw-a", "openclaw.yaml"),
    };
    applyProfileEnv("b", inherited);
    expect(inherited).toEqual({ HOME: home, OPENCLAW_PROFILE: "b", OPENCLAW_STATE_DIR: path.join(home, ".openclaw-b") });
  });
});

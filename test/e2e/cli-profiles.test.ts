import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, spawnCli } from "../helpers/gateway-process.js";

/** `openclaw --dev` and `--profile <name>`: the state dir, config and default port, as OpenClaw's CLI chooses them. */
describe("global --dev and --profile", () => {
  it("choose ~/.openclaw-<name> (~/.openclaw-dev for --dev) before or after the command", async () => {
    const home = makeTempDir("openclaw-profiles-");
    const where = async (...args: string[]) => (await runCli([...args, "config", "file"], { HOME: home })).output.trim();
    expect(await where("--profile", "work")).toBe(`${path.join(home, ".openclaw-work", "openclaw.yaml")} (not created yet)`);
    expect(await where("--profile=work")).toBe(`${path.join(home, ".openclaw-work", "openclaw.yaml")} (not created yet)`);
    expect(await where("--dev")).toBe(`${path.join(home, ".openclaw-dev", "openclaw.yaml")} (not created yet)`);
    expect(await where("--profile", "default")).toBe(`${path.join(home, ".openclaw", "openclaw.yaml")} (not created yet)`);
    const after = await runCli(["config", "file", "--profile", "work"], { HOME: home });
    expect(after.output.trim()).toBe(`${path.join(home, ".openclaw-work", "openclaw.yaml")} (not created yet)`);
    // OPENCLAW_HOME moves the profiles' parent as it moves ~/.openclaw.
    const elsewhere = makeTempDir("openclaw-profiles-home-");
    const moved = await runCli(["--profile", "work", "config", "file"], { HOME: home, OPENCLAW_HOME: elsewhere });
    expect(moved.output.trim()).toBe(`${path.join(elsewhere, ".openclaw-work", "openclaw.yaml")} (not created yet)`);
  });

  it("an explicit OPENCLAW_STATE_DIR or OPENCLAW_CONFIG_PATH wins, one naming the default profile's own files does not", async () => {
    const home = makeTempDir("openclaw-profiles-");
    const explicit = makeTempDir("openclaw-profiles-state-");
    const kept = await runCli(["--profile", "work", "config", "file"], { HOME: home, OPENCLAW_STATE_DIR: explicit });
    expect(kept.output.trim()).toBe(`${path.join(explicit, "openclaw.yaml")} (not created yet)`);
    const switched = await runCli(["--profile", "work", "config", "file"], { HOME: home, OPENCLAW_STATE_DIR: path.join(home, ".openclaw") });
    expect(switched.output.trim()).toBe(`${path.join(home, ".openclaw-work", "openclaw.yaml")} (not created yet)`);

    fs.mkdirSync(path.join(home, ".openclaw-work"));
    fs.writeFileSync(path.join(home, ".openclaw-work", "openclaw.json"), "{}");
    const inheritedConfig = await runCli(["--profile", "work", "config", "file"], { HOME: home, OPENCLAW_CONFIG_PATH: path.join(home, ".openclaw", "openclaw.json") });
    expect(inheritedConfig.output.trim()).toBe(path.join(home, ".openclaw-work", "openclaw.json"));
    const ownConfig = path.join(explicit, "mine.json");
    const explicitConfig = await runCli(["--profile", "work", "config", "file"], { HOME: home, OPENCLAW_CONFIG_PATH: ownConfig });
    expect(explicitConfig.output.trim()).toBe(ownConfig);
  });

  it("--dev makes 19001 the default gateway port; OPENCLAW_GATEWAY_PORT still wins", async () => {
    const home = makeTempDir("openclaw-profiles-");
    const dev = await runCli(["--dev", "health", "--json"], { HOME: home });
    expect(dev.code).toBe(1);
    expect(JSON.parse(dev.output).error.message).toContain("ws://127.0.0.1:19001");
    // The hint names the command as it must be typed under the profile.
    expect(JSON.parse(dev.output).error.message).toContain("Start one with `openclaw --dev gateway start`");
    const work = await runCli(["--profile", "work", "health", "--port", "1"], { HOME: home });
    expect(work.output).toContain("Start one with `openclaw --profile work gateway start`");
    const port = await runCli(["--dev", "health", "--json"], { HOME: home, OPENCLAW_GATEWAY_PORT: "1" });
    expect(JSON.parse(port.output).error.message).toContain("ws://127.0.0.1:1:");
  });

  it("a gateway run under a profile keeps its state there, and the profile's commands find it", async () => {
    const home = makeTempDir("openclaw-profiles-");
    const env = { HOME: home, OPENCLAW_GATEWAY_TOKEN: "profile-token" };
    const gw = spawnCli(["--profile", "work", "gateway", "run", "--port", "0"], env);
    try {
      const listening = await gw.waitForOutput(/^.*"msg":"gateway listening".*$/m, 15_000);
      expect(JSON.parse(listening).stateDir).toBe(path.join(home, ".openclaw-work"));
      const health = await runCli(["--profile", "work", "health", "--json"], env);
      expect(health.code, health.output).toBe(0);
      expect(JSON.parse(health.output).ok).toBe(true);
      expect(fs.existsSync(path.join(home, ".openclaw"))).toBe(false);
    } finally {
      await gw.stop();
    }
  }, 30_000);

  it("gateway install under a profile writes and starts that profile's own unit, with its state dir, profile and port", async () => {
    const home = makeTempDir("openclaw-profiles-");
    const bin = path.join(home, "bin");
    fs.mkdirSync(bin);
    const record = path.join(home, "systemctl.log");
    fs.writeFileSync(path.join(bin, "systemctl"), `#!/bin/sh\necho "$*" >> "${record}"\n`, { mode: 0o755 });
    const env = { HOME: home, PATH: `${bin}:${process.env.PATH}` };
    const units = path.join(home, ".config", "systemd", "user");

    const plain = await runCli(["gateway", "install"], env);
    expect(plain.code, plain.output).toBe(0);
    const dev = await runCli(["--dev", "gateway", "install"], env);
    expect(dev.code, dev.output).toBe(0);
    expect(dev.output).toContain(path.join(units, "openclaw-gateway-dev.service"));
    const work = await runCli(["--profile", "work", "gateway", "install", "--port", "18801"], env);
    expect(work.code, work.output).toBe(0);

    expect(fs.readdirSync(units).sort()).toEqual(["openclaw-gateway-dev.service", "openclaw-gateway-work.service", "openclaw-gateway.service"]);
    const devUnit = fs.readFileSync(path.join(units, "openclaw-gateway-dev.service"), "utf8");
    expect(devUnit).toContain(`Environment=OPENCLAW_STATE_DIR=${path.join(home, ".openclaw-dev")}`);
    expect(devUnit).toContain("Environment=OPENCLAW_PROFILE=dev");
    expect(devUnit).toContain("Environment=OPENCLAW_GATEWAY_PORT=19001");
    const workUnit = fs.readFileSync(path.join(units, "openclaw-gateway-work.service"), "utf8");
    expect(workUnit).toContain(`Environment=OPENCLAW_STATE_DIR=${path.join(home, ".openclaw-work")}`);
    expect(workUnit).toMatch(/gateway run --port 18801$/m);
    expect(workUnit).not.toContain("OPENCLAW_GATEWAY_PORT");
    const defaultUnit = fs.readFileSync(path.join(units, "openclaw-gateway.service"), "utf8");
    expect(defaultUnit).toContain(`Environment=OPENCLAW_STATE_DIR=${path.join(home, ".openclaw")}`);
    expect(defaultUnit).not.toContain("OPENCLAW_PROFILE");

    const removed = await runCli(["--profile", "work", "gateway", "uninstall"], env);
    expect(removed.code, removed.output).toBe(0);
    expect(fs.readdirSync(units).sort()).toEqual(["openclaw-gateway-dev.service", "openclaw-gateway.service"]);
    expect(fs.readFileSync(record, "utf8").trim().split("\n")).toEqual([
      "--user daemon-reload",
      "--user enable --now openclaw-gateway.service",
      "--user daemon-reload",
      "--user enable --now openclaw-gateway-dev.service",
      "--user daemon-reload",
      "--user enable --now openclaw-gateway-work.service",
      "--user disable --now openclaw-gateway-work.service",
      "--user daemon-reload",
    ]);
  });

  it("refuses a profile name that is not one, --dev with --profile and --dev after gateway, changing nothing (exit 2)", async () => {
    const home = makeTempDir("openclaw-profiles-");
    for (const name of ["a/b", "../x", "-x", ".hidden", "a b"]) {
      const res = await runCli([`--profile=${name}`, "config", "set", "gateway.port", "1234"], { HOME: home });
      expect(res.code, name).toBe(2);
      expect(res.output).toContain(`Invalid --profile "${name}"`);
      expect(res.output).toContain("no path separators");
    }
    const json = await runCli(["--profile", "a/b", "status", "--json"], { HOME: home });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.output)).toMatchObject({ ok: false, error: { type: "cli_error" } });
    const empty = await runCli(["config", "file", "--profile"], { HOME: home });
    expect(empty.code).toBe(2);
    expect(empty.output).toContain("--profile requires a value");
    const both = await runCli(["--dev", "--profile", "work", "config", "file"], { HOME: home });
    expect(both.code).toBe(2);
    expect(both.output).toContain("Cannot combine --dev with --profile");
    const gatewayDev = await runCli(["gateway", "run", "--dev"], { HOME: home });
    expect(gatewayDev.code).toBe(2);
    expect(gatewayDev.output).toContain("openclaw --dev gateway");
    expect(fs.readdirSync(home)).toEqual([]);
  });
});

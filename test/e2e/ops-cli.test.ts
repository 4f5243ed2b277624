import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli, spawnCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";
import { waitUntil } from "../helpers/reliability.js";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway({ configFile: { name: "openclaw.yaml", content: "gateway:\n  mode: local\n  controlUi:\n    basePath: /console\n" } });
});
afterAll(async () => {
  await gw?.stop();
});

const env = () => ({ OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });

describe("openclaw logs", () => {
  it("prints the last lines, raw with --json and readable without", async () => {
    const json = await runCli(["logs", "--json", "--limit", "50"], env());
    expect(json.code).toBe(0);
    const listening = json.output.split("\n").find((l) => l.includes('"msg":"gateway listening"'));
    expect(JSON.parse(listening!).port).toBe(gw.port);
    const pretty = await runCli(["logs", "--limit", "50"], env());
    expect(pretty.output).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}gateway listening .*port=\d+/m);
  });

  it("--level keeps only lines at that level or above", async () => {
    const { output } = await runCli(["logs", "--json", "--level", "warn", "--limit", "500"], env());
    const levels = output
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).level as number);
    expect(levels.every((level) => level >= 40)).toBe(true);
    expect(output).not.toContain("gateway listening");
  });

  it("--follow prints what the gateway logs next and stops cleanly on Ctrl-C", async () => {
    const follower = spawnCli(["logs", "--follow", "--json", "--limit", "1"], env());
    try {
      await follower.waitForOutput(/\n/, 15_000); // the starting tail is printed
      const { sock } = await openOperator(gw.url, gw.token);
      const { payload: snap } = await sock.request("config.get", {});
      await sock.request("config.patch", { raw: "{ logging: { level: 'info' } }", baseHash: snap.hash });
      sock.close();
      await follower.waitForOutput("config written through the gateway", 15_000);
      expect(await follower.stop("SIGINT")).toBe(0);
    } finally {
      await follower.stop("SIGKILL");
    }
  });

  it("an unknown level is refused with the choices", async () => {
    const { code, output } = await runCli(["logs", "--level", "loud"], env());
    expect(code).not.toBe(0);
    expect(output).toMatch(/Allowed choices are trace, debug, info, warn, error, fatal/);
  });
});

describe("openclaw dashboard", () => {
  it("prints the Control UI URL under gateway.controlUi.basePath with the token", async () => {
    const { code, output } = await runCli(["dashboard", "--no-open"], env());
    expect(code).toBe(0);
    expect(output.trim()).toBe(`http://127.0.0.1:${gw.port}/console/?token=${encodeURIComponent(gw.token!)}`);
  });

  /** A directory with a fake `xdg-open` that records the URL it was given. */
  function fakeOpener() {
    const bin = makeTempDir();
    const record = path.join(bin, "opened.txt");
    fs.writeFileSync(path.join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > "${record}.tmp" && mv "${record}.tmp" "${record}"\n`, { mode: 0o755 });
    return { bin, record };
  }

  it("opens the link with the platform opener when there is a display", async () => {
    const { bin, record } = fakeOpener();
    const { code, output } = await runCli(["dashboard"], { ...env(), PATH: `${bin}:${process.env.PATH}`, DISPLAY: ":99" });
    expect(code).toBe(0);
    const url = `http://127.0.0.1:${gw.port}/console/?token=${encodeURIComponent(gw.token!)}`;
    expect(output).toContain(`${url}\nOpened in your browser (xdg-open).`);
    // The opener runs detached and may finish after the command: wait for what it recorded.
    await waitUntil(() => fs.existsSync(record), 10_000);
    expect(fs.readFileSync(record, "utf8")).toBe(url);
  });

  it("prints the link and says why when nothing can open it", async () => {
    const { bin, record } = fakeOpener();
    const noDisplay = await runCli(["dashboard"], { ...env(), PATH: `${bin}:${process.env.PATH}`, DISPLAY: "", WAYLAND_DISPLAY: "" });
    expect(noDisplay.code).toBe(0);
    expect(noDisplay.output).toContain(`/console/?token=`);
    expect(noDisplay.output).toContain("Not opened: there is no display here (DISPLAY and WAYLAND_DISPLAY are unset). Open the link above in a browser.");
    const noOpener = await runCli(["dashboard"], { ...env(), PATH: makeTempDir(), DISPLAY: ":99" });
    expect(noOpener.code).toBe(0);
    expect(noOpener.output).toContain("Not opened: xdg-open is not installed here");
    const printOnly = await runCli(["dashboard", "--no-open"], { ...env(), PATH: `${bin}:${process.env.PATH}`, DISPLAY: ":99" });
    expect(printOnly.output).not.toContain("Opened");
    expect(fs.existsSync(record)).toBe(false);
  });

  it("puts no token in the link when the gateway uses password auth", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, "openclaw.yaml"), "gateway:\n  auth:\n    mode: password\n    password: pw\n");
    const { code, output } = await runCli(["dashboard", "--no-open"], { OPENCLAW_STATE_DIR: dir, OPENCLAW_GATEWAY_TOKEN: "t" });
    expect(code).toBe(0);
    expect(output).not.toContain("token=");
    expect(output).toContain("The gateway uses password auth: the page will ask for the password.");
    const json = await runCli(["dashboard", "--json"], { OPENCLAW_STATE_DIR: dir, OPENCLAW_GATEWAY_TOKEN: "t" });
    expect(JSON.parse(json.output)).toEqual({ url: "http://127.0.0.1:18789/", authenticated: false });
  });

  it("a bad --url is named with the form it needs; flags that would do nothing are not offered", async () => {
    const bad = await runCli(["dashboard", "--url", "notaurl"], env());
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('--url: expected the gateway\'s WebSocket address, ws://<host>:<port> or wss://<host>[:<port>], got "notaurl"');
    expect((await runCli(["health", "--url", "notaurl"], env())).output).toContain("--url: expected");
    const remote = await runCli(["dashboard", "--url", "wss://gw.example.com", "--token", "t", "--json"], env());
    expect(JSON.parse(remote.output)).toEqual({ url: "https://gw.example.com:443/console/?token=t", authenticated: true });
    for (const flag of ["--timeout", "--password"]) {
      const res = await runCli(["dashboard", flag, "5"], env());
      expect(res.code).not.toBe(0);
      expect(res.output).toContain(`unknown option '${flag}'`);
    }
  });

  it("says so when the Control UI is turned off", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, "openclaw.yaml"), "gateway:\n  controlUi:\n    enabled: false\n");
    const { code, output } = await runCli(["dashboard"], { OPENCLAW_STATE_DIR: dir, OPENCLAW_GATEWAY_TOKEN: "t" });
    expect(code).toBe(1);
    expect(output).toContain("gateway.controlUi.enabled");
  });
});

describe("openclaw gateway install | uninstall (systemd)", () => {
  /** A HOME with a fake `systemctl` first on PATH that records its arguments. */
  function fakeHome(exitCode = 0) {
    const home = makeTempDir();
    const bin = path.join(home, "bin");
    fs.mkdirSync(bin);
    const record = path.join(home, "systemctl.log");
    fs.writeFileSync(path.join(bin, "systemctl"), `#!/bin/sh\necho "$*" >> "${record}"\n${exitCode ? `echo "Failed to connect to bus" >&2\nexit ${exitCode}\n` : ""}`, {
      mode: 0o755,
    });
    const stateDir = path.join(home, ".openclaw");
    const env = { HOME: home, PATH: `${bin}:${process.env.PATH}`, OPENCLAW_STATE_DIR: stateDir, XDG_CONFIG_HOME: undefined };
    return {
      home,
      env,
      stateDir,
      unit: path.join(home, ".config", "systemd", "user", "openclaw-gateway.service"),
      calls: () => fs.readFileSync(record, "utf8").trim().split("\n"),
    };
  }

  it("writes a user unit with MALLOC_ARENA_MAX=2 and restart-on-failure, then enables and starts it", async () => {
    const h = fakeHome();
    const { code, output } = await runCli(["gateway", "install", "--port", "18800"], h.env);
    expect(code).toBe(0);
    expect(output).toContain(h.unit);
    const unit = fs.readFileSync(h.unit, "utf8");
    expect(unit).toMatch(/^ExecStart=\S*node\S* --heap-growing-percent=30 --max-semi-space-size=2 --v8-pool-size=1 \S+openclaw\.cjs gateway run --port 18800$/m);
    expect(unit).toContain("Environment=MALLOC_ARENA_MAX=2");
    expect(unit).toContain(`Environment=OPENCLAW_STATE_DIR=${h.stateDir}`);
    expect(unit).toContain("Restart=on-failure");
    expect(unit).toContain("RestartPreventExitStatus=78");
    expect(unit).toContain("WantedBy=default.target");
    expect(unit).toMatch(/^TimeoutStopSec=30$/m);
    expect(unit).not.toMatch(/TOKEN/);
    expect(h.calls()).toEqual(["--user daemon-reload", "--user enable --now openclaw-gateway.service"]);

    const again = await runCli(["gateway", "install"], h.env);
    expect(again.code).toBe(1);
    expect(again.output).toContain("already installed");
    expect((await runCli(["gateway", "install", "--force"], h.env)).code).toBe(0);
    expect(fs.readFileSync(h.unit, "utf8")).toMatch(/gateway run$/m);

    const removed = await runCli(["gateway", "uninstall"], h.env);
    expect(removed.code).toBe(0);
    expect(fs.existsSync(h.unit)).toBe(false);
    expect(h.calls().slice(-2)).toEqual(["--user disable --now openclaw-gateway.service", "--user daemon-reload"]);
  });

  it("gives the unit a stop timeout past the config's shutdown deadline, and doctor warns when the config outgrows it", async () => {
    const h = fakeHome();
    fs.mkdirSync(h.stateDir, { recursive: true, mode: 0o700 });
    const config = path.join(h.stateDir, "openclaw.json");
    const writeConfig = (hookTimeoutMs: number) => fs.writeFileSync(config, JSON.stringify({ hooks: { internal: { timeoutMs: hookTimeoutMs } } }), { mode: 0o600 });
    const serviceCheck = async () => {
      const { output } = await runCli(["doctor", "--json"], h.env);
      return JSON.parse(output.slice(output.indexOf("{"))).checks.find((c: { id: string }) => c.id === "service");
    };
    // 120 s of hooks make a 132.5 s deadline: the unit waits 133 s + 5 s.
    writeConfig(120_000);
    expect((await runCli(["gateway", "install"], h.env)).code).toBe(0);
    expect(fs.readFileSync(h.unit, "utf8")).toMatch(/^TimeoutStopSec=138$/m);
    expect(await serviceCheck()).toMatchObject({ status: "ok", message: `service ${h.unit}: TimeoutStopSec=138 s covers the gateway's shutdown deadline (132.5 s)` });

    // The defaults (17.5 s) get the 30 s floor; a config raised afterwards no longer fits.
    writeConfig(5_000);
    expect((await runCli(["gateway", "install", "--force"], h.env)).code).toBe(0);
    expect(fs.readFileSync(h.unit, "utf8")).toMatch(/^TimeoutStopSec=30$/m);
    writeConfig(60_000);
    expect(await serviceCheck()).toEqual({
      id: "service",
      status: "warn",
      message: `service ${h.unit}: TimeoutStopSec=30 s is shorter than the gateway's shutdown deadline (72.5 s, from hooks.internal.timeoutMs 60000) plus the 5 s margin; systemd kills the gateway before it logs what hung`,
      fix: "`openclaw gateway install --force` rewrites the service with TimeoutStopSec=78, or lower hooks.internal.timeoutMs",
    });
    // A drop-in that raises the timeout is read as systemd reads it.
    fs.mkdirSync(`${h.unit}.d`);
    fs.writeFileSync(path.join(`${h.unit}.d`, "override.conf"), "[Service]\nTimeoutStopSec=2min\n");
    expect(await serviceCheck()).toMatchObject({ status: "ok", message: `service ${h.unit}: TimeoutStopSec=120 s covers the gateway's shutdown deadline (72.5 s)` });
    fs.rmSync(`${h.unit}.d`, { recursive: true });
    expect((await runCli(["gateway", "install", "--force"], h.env)).code).toBe(0);
    expect(fs.readFileSync(h.unit, "utf8")).toMatch(/^TimeoutStopSec=78$/m);
    expect(await serviceCheck()).toMatchObject({ status: "ok" });
  });

  it("carries OPENCLAW_SHUTDOWN_TIMEOUT_MS into the unit and times the stop by it; refuses a bad one", async () => {
    const h = fakeHome();
    expect((await runCli(["gateway", "install"], { ...h.env, OPENCLAW_SHUTDOWN_TIMEOUT_MS: "40000" })).code).toBe(0);
    const unit = fs.readFileSync(h.unit, "utf8");
    expect(unit).toContain("Environment=OPENCLAW_SHUTDOWN_TIMEOUT_MS=40000");
    expect(unit).toMatch(/^TimeoutStopSec=45$/m);
    fs.rmSync(h.unit);
    const bad = await runCli(["gateway", "install"], { ...h.env, OPENCLAW_SHUTDOWN_TIMEOUT_MS: "soon" });
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('OPENCLAW_SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647 (got "soon")');
    expect(fs.existsSync(h.unit)).toBe(false);
  });

  it("reports systemctl's own failure", async () => {
    const h = fakeHome(1);
    const { code, output } = await runCli(["gateway", "install"], h.env);
    expect(code).toBe(1);
    expect(output).toContain("systemctl --user daemon-reload failed (exit 1): Failed to connect to bus");
    // The written file is named with the way to retry, and that way works.
    expect(output).toContain(`The service file ${h.unit} was written but the service is not running; once that is fixed, \`openclaw gateway install --force\` retries`);
    fs.writeFileSync(path.join(h.home, "bin", "systemctl"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    expect((await runCli(["gateway", "install", "--force"], h.env)).code).toBe(0);
  });

  it("refuses --port 0: the service would listen somewhere new at every start", async () => {
    const h = fakeHome();
    const { code, output } = await runCli(["gateway", "install", "--port", "0"], h.env);
    expect(code).toBe(1);
    expect(output).toContain('--port: expected integer 1-65535, got "0"');
    expect(fs.existsSync(h.unit)).toBe(false);
  });

  it("refuses to install over a broken config", async () => {
    const h = fakeHome();
    fs.mkdirSync(h.stateDir, { recursive: true });
    fs.writeFileSync(path.join(h.stateDir, "openclaw.yaml"), "gateway:\n  bind: everywhere\n");
    const { code, output } = await runCli(["gateway", "install"], h.env);
    expect(code).toBe(78);
    expect(output).toContain("gateway.bind");
    expect(fs.existsSync(h.unit)).toBe(false);
  });
});

describe("docs/cli.md", () => {
  it("names every command and every long flag of the real command tree, and no flag it lacks", async () => {
    // The zsh script lists each command path with its options, from the CLI's own tree.
    const { output: script } = await runCli(["completion", "zsh"], {});
    const tree = [...script.matchAll(/^ {4}'([a-z -]*)'\) subs=\(.*?\); opts=\((.*)\) ;;$/gm)].map(([, cmd, opts]) => ({
      cmd: cmd!,
      flags: [...opts!.matchAll(/'(--[a-z-]+)'/g)].map((m) => m[1]!),
    }));
    expect(tree.length).toBeGreaterThan(60);
    const doc = fs.readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
    const missingCommands = tree.filter((c) => c.cmd && !doc.includes(c.cmd)).map((c) => c.cmd);
    expect(missingCommands).toEqual([]);
    const known = new Set(tree.flatMap((c) => c.flags));
    const missingFlags = [...known].filter((f) => f !== "--help" && f !== "--version" && !new RegExp(`${f}(?![a-z-])`).test(doc));
    expect(missingFlags).toEqual([]);
    // `--no-x` negates `--x`; `--user` and `--now` are systemctl's; any other flag the doc names must
    // exist, except in the last section, which names the flags of OpenClaw's own CLI.
    const ownCli = doc.split("\n## OpenClaw's own CLI against this gateway\n")[0]!;
    expect(ownCli.length).toBeLessThan(doc.length);
    const unknown = [...new Set([...ownCli.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))].filter(
      (f) => !known.has(f) && !known.has(f.replace(/^--no-/, "--")) && !["--user", "--now"].includes(f),
    );
    expect(unknown).toEqual([]);
  });
});

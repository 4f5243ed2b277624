import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { killIfStill } from "../helpers/kill-if-still.js";
import { isProcessAlive } from "../../src/infra/process-alive.js";

describe("gateway start / status / call / stop", () => {
  const stateDir = makeTempDir();
  const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_PORT: "0" };
  let pid = 0;
  afterAll(() => {
    if (pid) killIfStill(pid, `OPENCLAW_STATE_DIR=${stateDir}`);
  });

  it("starts a detached gateway with pid and log files in the state dir", async () => {
    const res = await runCli(["gateway", "start", "--json"], env);
    expect(res.code).toBe(0);
    const started = JSON.parse(res.output.slice(res.output.indexOf("{")));
    pid = started.pid;
    expect(started).toMatchObject({ ok: true, host: "127.0.0.1" });
    expect(started.port).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(stateDir, "gateway.pid"), "utf8").trim()).toBe(String(pid));
    expect(fs.existsSync(path.join(stateDir, "logs", "gateway.out.log"))).toBe(true);
    expect(isProcessAlive(pid)).toBe(true);
    // The daemon runs with two malloc arenas (docs/architecture.md, "Memory over weeks").
    if (process.platform === "linux") expect(fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain("MALLOC_ARENA_MAX=2");
  });

  it("a second start says where the running one is, and succeeds", async () => {
    const res = await runCli(["gateway", "start"], env);
    expect(res.code).toBe(0);
    expect(res.output).toMatch(new RegExp(`Gateway already running \\(pid ${pid}\\) on ws://127\\.0\\.0\\.1:\\d+`));
    const json = await runCli(["gateway", "start", "--json"], env);
    expect(JSON.parse(json.output)).toMatchObject({ ok: true, alreadyRunning: true, pid });
  });

  it("the daemon gets its V8 flags on its command line and writes one private log", async () => {
    if (process.platform === "linux")
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(
        expect.arrayContaining(["--heap-growing-percent=30", "--max-semi-space-size=2", "--v8-pool-size=1"]),
      );
    const log = path.join(stateDir, "logs", "gateway.log");
    const out = path.join(stateDir, "logs", "gateway.out.log");
    expect(fs.readFileSync(log, "utf8")).toContain('"msg":"gateway listening"');
    // The output file keeps what is not a log line; it is not a second copy of the log.
    expect(fs.readFileSync(out, "utf8")).not.toContain('"msg":"gateway listening"');
    expect(fs.statSync(log).mode & 0o777).toBe(0o600);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
  });

  it("status shows pid, port and uptime from the health RPC", async () => {
    const res = await runCli(["gateway", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(0);
    const status = JSON.parse(res.output);
    expect(status).toMatchObject({ ok: true, running: true, pid });
    expect(status.uptimeMs).toBeGreaterThanOrEqual(0);
    const text = await runCli(["gateway", "status"], { OPENCLAW_STATE_DIR: stateDir });
    expect(text.output).toContain(`PID: ${pid}`);
    expect(text.output).toMatch(/Uptime: \d+s/);
  });

  it("gateway call and health talk to it with the stored token", async () => {
    const call = await runCli(["gateway", "call", "health", "--params", "{}", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(call.code).toBe(0);
    expect(JSON.parse(call.output)).toMatchObject({ ok: true, defaultAgentId: "main" });
    const status = await runCli(["gateway", "call", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(JSON.parse(status.output)).toMatchObject({ ok: true, pid });
    const health = await runCli(["health"], { OPENCLAW_STATE_DIR: stateDir });
    expect(health.code).toBe(0);
    expect(health.output).toContain(`pid ${pid}`);
    const unknown = await runCli(["gateway", "call", "nope", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.output)).toEqual({ ok: false, error: { type: "cli_error", message: "unknown method: nope", code: "INVALID_REQUEST" } });
  });

  it("gateway call keeps the gateway's error code and details", async () => {
    const wait = await runCli(["gateway", "call", "agent.wait", "--params", '{"runId":"nope"}', "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(wait.code).toBe(1);
    expect(JSON.parse(wait.output)).toEqual({ ok: false, error: { type: "cli_error", message: "no run with id nope", code: "AGENT_RESULT_NOT_FOUND" } });
    const text = await runCli(["gateway", "call", "agent.wait", "--params", '{"runId":"nope"}'], { OPENCLAW_STATE_DIR: stateDir });
    expect(text.output.trim()).toBe("openclaw: no run with id nope [AGENT_RESULT_NOT_FOUND]");
    const conflict = await runCli(["gateway", "call", "config.patch", "--params", '{"raw":"{}","baseHash":"stale"}', "--json"], { OPENCLAW_STATE_DIR: stateDir });
    const { error } = JSON.parse(conflict.output);
    expect(error).toMatchObject({ code: "INVALID_REQUEST", details: { code: "CONFIG_CONFLICT" } });
    expect(error.details).toHaveProperty("currentHash");
  });

  it("a wrong --token is refused with the gateway's message", async () => {
    const res = await runCli(["gateway", "call", "health", "--token", "wrong"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain("unauthorized: gateway token mismatch");
  });

  it("restart replaces the running gateway with a new process", async () => {
    const res = await runCli(["gateway", "restart", "--json"], env);
    expect(res.code).toBe(0);
    const restarted = JSON.parse(res.output.slice(res.output.lastIndexOf("{\n")));
    expect(restarted.ok).toBe(true);
    expect(restarted.pid).not.toBe(pid);
    expect(isProcessAlive(pid)).toBe(false);
    pid = restarted.pid;
    expect(isProcessAlive(pid)).toBe(true);
  });

  it("stops it and reports when nothing runs", async () => {
    const res = await runCli(["gateway", "stop"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(0);
    expect(res.output).toContain(`Gateway stopped (pid ${pid})`);
    expect(isProcessAlive(pid)).toBe(false);
    expect(fs.existsSync(path.join(stateDir, "gateway.pid"))).toBe(false);
    const status = await runCli(["gateway", "status"], { OPENCLAW_STATE_DIR: stateDir });
    expect(status.code).toBe(1);
    expect(status.output).toContain("Gateway: not running");
    const health = await runCli(["health"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_PORT: "1" });
    expect(health.code).toBe(1);
    expect(health.output).toMatch(/cannot reach gateway/);
  });

  it("gateway start with an invalid config fails in the terminal with exit 78", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, "openclaw.yaml"), "gateway:\n  bind: 0.0.0.0\n");
    const res = await runCli(["gateway", "start"], { OPENCLAW_STATE_DIR: dir });
    expect(res.code).toBe(78);
    expect(res.output).toContain("gateway.bind");
    expect(fs.existsSync(path.join(dir, "gateway.pid"))).toBe(false);
  });
});

describe("config get / set / validate", () => {
  it("sets a value, reads it back, redacts secrets and validates", async () => {
    const stateDir = makeTempDir();
    const env = { OPENCLAW_STATE_DIR: stateDir };
    expect((await runCli(["config", "set", "gateway.port", "19999"], env)).code).toBe(0);
    expect((await runCli(["config", "set", "gateway.auth.token", "s3cret-value"], env)).code).toBe(0);
    const file = path.join(stateDir, "openclaw.yaml");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await runCli(["config", "get", "gateway.port"], env)).output.trim()).toBe("19999");
    const token = await runCli(["config", "get", "gateway.auth.token"], env);
    expect(token.output).not.toContain("s3cret-value");
    const missing = await runCli(["config", "get", "gateway.nope", "--json"], env);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.output)).toEqual({ error: "Config path not found: gateway.nope" });

    const bad = await runCli(["config", "set", "gateway.port", "abc"], env);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain("gateway.port: expected integer 1-65535");
    expect((await runCli(["config", "get", "gateway.port"], env)).output.trim()).toBe("19999");

    const ok = await runCli(["config", "validate"], env);
    expect(ok.code).toBe(0);
    expect(ok.output).toContain(`Config valid: ${file}`);
    fs.appendFileSync(file, "logging:\n  level: loud\n");
    const invalid = await runCli(["config", "validate", "--json"], env);
    expect(invalid.code).toBe(78);
    expect(JSON.parse(invalid.output).issues[0].path).toBe("logging.level");
  });

  it('validate warns that gateway.customBindHost does nothing unless gateway.bind is "custom"; setting the bind clears it', async () => {
    const stateDir = makeTempDir();
    const env = { OPENCLAW_STATE_DIR: stateDir };
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), "gateway:\n  bind: loopback\n  customBindHost: 192.168.1.10\n");
    const idle = await runCli(["config", "validate"], env);
    expect(idle.code).toBe(0);
    expect(idle.output).toContain(
      'warning: gateway.customBindHost is ignored: gateway.bind is "loopback", not "custom" (set gateway.bind to "custom" to use it, or remove it; as it is, only `gateway run --bind custom` uses it)',
    );
    expect((await runCli(["config", "set", "gateway.bind", "custom"], env)).code).toBe(0);
    const used = await runCli(["config", "validate"], env);
    expect(used.code).toBe(0);
    expect(used.output).not.toContain("warning:");
  });

  it("validate warns about a gateway.controlUi.allowedOrigins entry that is not an origin, since it lets no page in", async () => {
    const stateDir = makeTempDir();
    const env = { OPENCLAW_STATE_DIR: stateDir };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ gateway: { controlUi: { allowedOrigins: ["192.168.1.5:18789", "https://ui.example.com", "*"] } } }));
    const checked = await runCli(["config", "validate"], env);
    expect(checked.code).toBe(0);
    expect(checked.output).toContain(
      'warning: gateway.controlUi.allowedOrigins[0] "192.168.1.5:18789" is not an origin, so it lets no page in: write it as scheme://host[:port] (http://192.168.1.5:18789)',
    );
    expect(checked.output.match(/warning:/g)).toHaveLength(1);
  });

  it("validate names unknown keys with a suggestion, --strict makes them errors; set refuses them; unset removes", async () => {
    const stateDir = makeTempDir();
    const env = { OPENCLAW_STATE_DIR: stateDir };
    const file = path.join(stateDir, "openclaw.yaml");
    fs.writeFileSync(file, "# my gateway\ngateway:\n  prot: 19000\n  port: 19001 # the port\n");
    const lenient = await runCli(["config", "validate"], env);
    expect(lenient.code).toBe(0);
    expect(lenient.output).toContain('warning: unknown config key "gateway.prot" (ignored; did you mean "gateway.port"?)');
    const strict = await runCli(["config", "validate", "--strict"], env);
    expect(strict.code).toBe(78);
    expect(strict.output).toContain('gateway.prot: unknown config key "gateway.prot" (ignored; did you mean "gateway.port"?)');

    const before = fs.readFileSync(file, "utf8");
    const typo = await runCli(["config", "set", "gateway.auth.tokn", "abc"], env);
    expect(typo.code).toBe(1);
    expect(typo.output).toContain('gateway.auth.tokn: not a config key this gateway knows; did you mean "gateway.auth.token"?');
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    // A key the file already holds does not stop an edit of another one; it is still named.
    const other = await runCli(["config", "set", "gateway.bind", "loopback"], env);
    expect(other.code).toBe(0);
    expect(other.output).toContain('warning: unknown config key "gateway.prot"');

    expect((await runCli(["config", "unset", "gateway.prot"], env)).code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("# my gateway\ngateway:\n  port: 19001 # the port\n  bind: loopback\n");
    expect((await runCli(["config", "validate", "--strict"], env)).code).toBe(0);
    const missing = await runCli(["config", "unset", "gateway.nope"], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("Config path not found: gateway.nope");
  }, 120_000);

  it("--version and --help work", async () => {
    const version = await runCli(["--version"], {});
    expect(version.output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runCli(["gateway", "--help"], {});
    expect(help.output).toContain("run");
    expect(help.output).toContain("status");
  });
});

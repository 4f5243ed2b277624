import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, spawnCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswersTo } from "../helpers/queue-gateway.js";
import { openOperator } from "../helpers/ws-client.js";
import { askAndWait } from "../helpers/chat-session.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The whole stop has one deadline: a stage that hangs (a `gateway:shutdown` hook that never
 * returns, a channel account whose stop waits on its platform) no longer keeps the process alive.
 * Past the deadline — `OPENCLAW_SHUTDOWN_TIMEOUT_MS` here, to keep the test short — one error names
 * each stage still going and the process exits 1 without the state-dir lock; a second SIGTERM
 * does the same at once. `openclaw gateway stop` waits for that deadline, which the gateway
 * records in its lock file.
 */

const OWNER = 111;
const servers = useFakeServers();

/** A hook on `gateway:shutdown` whose handler never returns (a timer keeps its thread alive). */
function writeHangingShutdownHook(stateDir: string): Record<string, unknown> {
  const dir = path.join(stateDir, "hooks", "stall");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: stall\ndescription: never returns\nmetadata:\n  openclaw:\n    events: ["gateway:shutdown"]\n---\n`);
  fs.writeFileSync(path.join(dir, "handler.js"), "export default () => new Promise(() => setInterval(() => {}, 1_000));\n");
  return { internal: { timeoutMs: 60_000, entries: { stall: { enabled: true } } } };
}

async function start(stateDir: string, extra: Record<string, unknown>, env: Record<string, string> = {}): Promise<GatewayProcess> {
  const content = fakeModelConfig(servers.model, stateDir, extra);
  return servers.keep(await startGateway({ stateDir, env, configFile: { name: "openclaw.json", content } }));
}

/** SIGTERM (`signals` of them, the later ones once the stop has begun); resolves with the exit code and how long the exit took after the first. */
async function stopTimed(gw: GatewayProcess, signals = 1): Promise<{ code: number | string | null; ms: number }> {
  const began = Date.now();
  gw.proc.kill("SIGTERM");
  if (signals > 1) {
    await gw.waitForOutput(/"msg":"gateway stopping"/, 5_000);
    gw.proc.kill("SIGTERM");
  }
  const code = await gw.exited;
  return { code, ms: Date.now() - began };
}

describe("the shutdown deadline", () => {
  it("a gateway:shutdown hook that never returns: exit 1 at the deadline, one error naming the hooks, the lock released", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const gw = await start(stateDir, { hooks: writeHangingShutdownHook(stateDir) }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "1500" });
    const { code, ms } = await stopTimed(gw);
    expect(code).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(8_000);
    const errors = gw.output().match(/^.*"level":50.*shutdown deadline.*$/gm) ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"msg":"shutdown deadline (1.5 s) passed; still waiting for: internal hooks on gateway:shutdown"');
    expect(gw.output()).not.toMatch(/"msg":"gateway stopped"/);
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
  });

  it("a turn still running when the deadline passes is named with the stage that held the stop", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const [held] = holdAnswersTo(servers.model, ["take your time"]);
    const gw = await start(stateDir, { hooks: writeHangingShutdownHook(stateDir) }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "1500" });
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      expect((await sock.request("chat.send", { sessionKey: "main", message: "take your time", idempotencyKey: "slow-1" })).ok).toBe(true);
      await held!.arrived;
      const { code } = await stopTimed(gw);
      expect(code).toBe(1);
      expect(gw.output()).toContain('"msg":"shutdown deadline (1.5 s) passed; still waiting for: internal hooks on gateway:shutdown, turn agent:main:main"');
    } finally {
      sock.close();
      held!.release();
    }
  });

  it("a Telegram account whose stop waits on a held file download: the error names the account", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const telegram = await servers.startTelegram();
    const gw = await start(stateDir, { channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) } }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "2500" });
    await gw.waitForOutput(/channel account started/, 10_000);
    telegram.hangNext("getFile");
    const photo = telegram.addFile(Buffer.from("not really a png"), "photos/file_1.jpg");
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "look", photo, messageId: 1 });
    await telegram.waitFor(() => telegram.calls.some((c) => c.method === "getFile" && c.status === 0), 10_000);
    const { code, ms } = await stopTimed(gw);
    expect(code).toBe(1);
    // Before the account's own 5 s stop bound: the deadline, not the bound, ended the process.
    expect(ms).toBeLessThan(5_000);
    expect(gw.output()).toContain('"msg":"shutdown deadline (2.5 s) passed; still waiting for: channels stop, channel telegram:default stop"');
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
  });

  it("a second SIGTERM while the stop hangs exits 1 at once, naming what the stop was waiting for", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    // No OPENCLAW_SHUTDOWN_TIMEOUT_MS: the default deadline follows hooks.internal.timeoutMs (60 s here).
    const gw = await start(stateDir, { hooks: writeHangingShutdownHook(stateDir) });
    const { code, ms } = await stopTimed(gw, 2);
    expect(code).toBe(1);
    expect(ms).toBeLessThan(5_000);
    expect(gw.output()).toContain('"msg":"shutdown cut short by a second SIGTERM; still waiting for: internal hooks on gateway:shutdown"');
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
  });

  /** The main session's row in `sessions.json` as the process left it, or undefined. */
  function mainSessionRow(stateDir: string): Record<string, unknown> | undefined {
    const file = path.join(stateDir, "agents", "main", "sessions", "sessions.json");
    if (!fs.existsSync(file)) return undefined;
    return (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)["agent:main:main"];
  }

  for (const [how, timeoutMs, signals] of [
    ["the deadline", "300", 1],
    ["a second SIGTERM", undefined, 2],
  ] as const) {
    it(`a turn answered just before the stop keeps its sessions.json row when ${how} cuts the stop short`, { timeout: 30_000 }, async () => {
      const stateDir = makeTempDir();
      const gw = await start(stateDir, { hooks: writeHangingShutdownHook(stateDir) }, timeoutMs ? { OPENCLAW_SHUTDOWN_TIMEOUT_MS: timeoutMs } : {});
      const { sock } = await openOperator(gw.url, gw.token);
      try {
        const final = await askAndWait(sock, "main", "remember this turn");
        expect(final.payload.state).toBe("final");
        // At once: the session index's coalesced write (1 s after the turn) has not run yet.
        const { code } = await stopTimed(gw, signals);
        expect(code).toBe(1);
      } finally {
        sock.close();
      }
      const row = mainSessionRow(stateDir);
      expect(row, gw.output()).toBeDefined();
      expect(row!.messageCount).toBe(2);
    });
  }

  it("a hook still busy with an earlier event hears gateway:shutdown at once, not after that event", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const dir = path.join(stateDir, "hooks", "lifecycle");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: lifecycle\ndescription: slow at start\nmetadata:\n  openclaw:\n    events: ["gateway"]\n---\n`);
    fs.writeFileSync(
      path.join(dir, "handler.js"),
      [
        'import fs from "node:fs";',
        'import path from "node:path";',
        "export default async (event) => {",
        "  const marker = path.join(event.context.stateDir, `hook-${event.action}`);",
        "  fs.writeFileSync(marker, String(event.context.reason ?? event.context.port));",
        '  if (event.action === "startup") await new Promise(() => setInterval(() => {}, 1_000));',
        "};",
        "",
      ].join("\n"),
    );
    const hooks = { internal: { timeoutMs: 20_000, entries: { lifecycle: { enabled: true } } } };
    const gw = await start(stateDir, { hooks }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "5000" });
    const began = Date.now();
    while (!fs.existsSync(path.join(stateDir, "hook-startup"))) {
      expect(Date.now() - began, "the startup handler never ran").toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The startup handler is still running (for up to its 20 s budget) when the stop begins.
    const { code, ms } = await stopTimed(gw);
    expect(code, gw.output()).toBe(0);
    expect(ms).toBeLessThan(4_000);
    expect(fs.readFileSync(path.join(stateDir, "hook-shutdown"), "utf8")).toBe("gateway stopping (SIGTERM)");
  });

  it("`openclaw gateway stop` waits as long as the gateway's deadline, past its old 10 s", { timeout: 40_000 }, async () => {
    const stateDir = makeTempDir();
    const gw = await start(stateDir, { hooks: writeHangingShutdownHook(stateDir) }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "11000" });
    const began = Date.now();
    const res = await runCli(["gateway", "stop"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain(`Gateway stopped (pid ${gw.proc.pid})`);
    expect(Date.now() - began).toBeGreaterThanOrEqual(10_500);
    expect(await gw.exited).toBe(1);
    expect(gw.output()).toContain('"msg":"shutdown deadline (11 s) passed; still waiting for: internal hooks on gateway:shutdown"');
  });

  it("an OPENCLAW_SHUTDOWN_TIMEOUT_MS that is no whole number of milliseconds refuses the start, naming it", { timeout: 20_000 }, async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir));
    const child = spawnCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "t-1", OPENCLAW_SHUTDOWN_TIMEOUT_MS: "30s" });
    const code = await Promise.race([child.exited, new Promise((resolve) => setTimeout(() => resolve("still running after 15 s"), 15_000))]);
    child.proc.kill("SIGKILL");
    expect(code).toBe(1);
    expect(child.output()).toContain('OPENCLAW_SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647 (got "30s")');
    expect(child.output()).not.toMatch(/gateway listening/);
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
  });
});

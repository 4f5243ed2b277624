import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOtlpCollector } from "../fakes/otlp-collector.js";
import { askAndWait, eventually } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator, TestSocket } from "../helpers/ws-client.js";

/**
 * `diagnostics.stability`: the gateway's bounded, payload-free stability stream — memory readings,
 * frames and bodies refused for their size, channel delivery telemetry, the OTLP exporter's health —
 * answered live over RPC and `openclaw gateway stability`, and left on disk as a bundle by a
 * gateway whose stop passed its deadline.
 */

const OWNER = 4242;
const servers = useFakeServers();

async function start(stateDir: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<GatewayProcess> {
  return servers.keep(await startGateway({ stateDir, env, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, extra) } }));
}

async function stabilityOf(gw: GatewayProcess, params: Record<string, unknown> = {}) {
  const { sock } = await openOperator(gw.url, gw.token);
  try {
    return await sock.request("diagnostics.stability", params);
  } finally {
    sock.close();
  }
}

/** Opens a socket and, before `connect`, sends a frame over the 64 KiB pre-authentication limit; resolves with the close code. */
async function sendOversizedPreauthFrame(gw: GatewayProcess): Promise<number> {
  const raw = await TestSocket.open(gw.url);
  raw.send("x".repeat(70 * 1024));
  return (await raw.closed).code;
}

describe("diagnostics.stability", () => {
  it("answers OpenClaw's snapshot shape with a memory reading taken at start; unknown params and a bad limit are refused by name", { timeout: 30_000 }, async () => {
    const gw = await start(makeTempDir());
    const res = await stabilityOf(gw);
    expect(res.ok, JSON.stringify(res)).toBe(true);
    const snap = res.payload;
    expect(snap).toMatchObject({ capacity: 1000, dropped: 0 });
    expect(typeof snap.generatedAt).toBe("string");
    expect(snap.count).toBeGreaterThanOrEqual(1);
    expect(snap.summary.byType["diagnostic.memory.sample"]).toBeGreaterThanOrEqual(1);
    expect(snap.summary.memory.latest.rssBytes).toBeGreaterThan(0);
    expect(snap.events[0]).toMatchObject({ seq: 1, type: "diagnostic.memory.sample" });

    const unknown = await stabilityOf(gw, { limit: 10, verbose: true });
    expect(unknown.ok).toBe(false);
    expect(unknown.error.code).toBe("INVALID_REQUEST");
    expect(unknown.error.message).toContain("verbose");
    const tooMany = await stabilityOf(gw, { limit: 5000 });
    expect(tooMany.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining("limit must be between 1 and 1000") });
    // OpenClaw's CLI sends numbers; digit strings are taken too.
    expect((await stabilityOf(gw, { limit: "1", type: "diagnostic.memory.sample" })).payload.events).toHaveLength(1);
  });

  it("a WebSocket frame over the limit is a payload.large event: surface, limit and reason, never the frame", { timeout: 30_000 }, async () => {
    const gw = await start(makeTempDir());
    expect(await sendOversizedPreauthFrame(gw)).toBe(1009);
    const res = await eventually(async () => {
      const r = await stabilityOf(gw, { type: "payload.large" });
      if (r.payload.count === 0) throw new Error("no payload.large event yet");
      return r;
    }, 10_000);
    expect(res.payload.events[0]).toMatchObject({ type: "payload.large", surface: "gateway.ws", action: "rejected", limitBytes: 64 * 1024, reason: "preauth_limit" });
    expect(res.payload.summary.payloadLarge).toEqual({ count: 1, rejected: 1, truncated: 0, chunked: 0, bySurface: { "gateway.ws": 1 } });
    expect(JSON.stringify(res.payload)).not.toContain("xxxx");

    const cli = await runCli(["gateway", "stability", "--type", "payload.large", "--port", String(gw.port), "--token", gw.token!], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(cli.code, cli.output).toBe(0);
    expect(cli.output).toContain("Large payloads: total=1 rejected=1 truncated=0 chunked=0 · gateway.ws=1");
    expect(cli.output).toMatch(/#\d+ payload\.large action=rejected surface=gateway\.ws reason=preauth_limit limit=64 KiB/);
  });

  it("an HTTP body over its route's limit is a payload.large event of that surface", { timeout: 30_000 }, async () => {
    const gw = await start(makeTempDir());
    const res = await fetch(`${gw.httpUrl}/tools/invoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool: "x", args: { pad: "y".repeat(2 * 1024 * 1024) } }),
    });
    expect(res.status).toBe(413);
    const events = (await stabilityOf(gw, { type: "payload.large" })).payload.events;
    expect(events).toEqual([expect.objectContaining({ surface: "gateway.http.tools", action: "rejected", limitBytes: 2 * 1024 * 1024, reason: "body_limit" })]);
  });

  it("a Telegram message and its reply: received, dispatch, turn, processed and delivery, with no text of either", { timeout: 30_000 }, async () => {
    const telegram = await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "the secret answer" }));
    const gw = await start(makeTempDir(), { channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) } });
    await gw.waitForOutput(/channel account started/, 10_000);
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "the secret question", messageId: 1 });
    await telegram.waitFor(() => telegram.shown(OWNER).some((t) => t.includes("the secret answer")), 15_000);
    const snap = await eventually(async () => {
      const r = (await stabilityOf(gw, { limit: 1000 })).payload;
      if (!r.summary.byType["message.delivery.completed"] || !r.summary.byType["message.processed"]) throw new Error("delivery not recorded yet");
      return r;
    }, 10_000);
    expect(snap.summary.byType).toMatchObject({
      "message.received": 1,
      "message.dispatch.started": 1,
      "message.dispatch.completed": 1,
      "session.turn.created": 1,
      "message.processed": 1,
      "message.delivery.completed": 1,
    });
    const delivered = snap.events.find((e: { type: string }) => e.type === "message.delivery.completed");
    expect(delivered).toMatchObject({ channel: "telegram", deliveryKind: "reply", outcome: "completed", count: 1 });
    expect(snap.events.find((e: { type: string }) => e.type === "message.processed")).toMatchObject({ channel: "telegram", outcome: "completed" });
    expect(JSON.stringify(snap)).not.toMatch(/secret|4242/);
  });

  it("the OTLP trace exporter's health is kept under telemetry.exporter once it starts", { timeout: 30_000 }, async () => {
    const collector = await startFakeOtlpCollector();
    try {
      const gw = await start(makeTempDir(), { diagnostics: { otel: { endpoint: collector.endpoint } } });
      const { sock } = await openOperator(gw.url, gw.token);
      try {
        await askAndWait(sock, "main", "hello");
      } finally {
        sock.close();
      }
      await collector.waitFor((spans) => spans.length > 0);
      const res = await stabilityOf(gw, { type: "telemetry.exporter" });
      expect(res.payload.capacity).toBe(16);
      expect(res.payload.events).toEqual([
        expect.objectContaining({
          type: "telemetry.exporter",
          source: "diagnostics-otel",
          target: "traces",
          outcome: "started",
          transport: "otlp-http-protobuf",
          mode: "configured",
        }),
      ]);
      expect(JSON.stringify(res.payload)).not.toContain(collector.endpoint);
    } finally {
      await collector.close();
    }
  });

  it("an OTLP export that finally fails is the exporter's failure, with a reason code and no endpoint", { timeout: 30_000 }, async () => {
    // A port nothing listens on: every export is refused.
    const closed = await startFakeOtlpCollector();
    const endpoint = closed.endpoint;
    await closed.close();
    const gw = await start(makeTempDir(), { diagnostics: { otel: { endpoint } } });
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      await askAndWait(sock, "main", "hello");
    } finally {
      sock.close();
    }
    const failed = await eventually(async () => {
      const events = (await stabilityOf(gw, { type: "telemetry.exporter" })).payload.events;
      if (events[0]?.outcome !== "failure") throw new Error(`exporter state: ${JSON.stringify(events)}`);
      return events[0];
    }, 20_000);
    expect(failed).toMatchObject({ source: "diagnostics-otel", target: "traces", outcome: "failure", reason: "export_failed", transport: "otlp-http-protobuf" });
    expect(JSON.stringify(failed)).not.toContain(endpoint);
  });

  it("diagnostics.enabled: false records nothing", { timeout: 30_000 }, async () => {
    const gw = await start(makeTempDir(), { diagnostics: { enabled: false } });
    expect(await sendOversizedPreauthFrame(gw)).toBe(1009);
    const res = await stabilityOf(gw);
    expect(res.payload).toMatchObject({ count: 0, events: [] });
  });

  it("a restart that cannot start again (the config turned unreadable meanwhile) leaves a start_failed bundle", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const gw = await start(stateDir);
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const snap = (await sock.request("config.get", {})).payload;
      const config = JSON.parse(snap.raw);
      config.gateway = { ...config.gateway, controlUi: { allowedOrigins: ["http://example.test"] } };
      const res = await sock.request("config.apply", { raw: JSON.stringify(config), baseHash: snap.hash, restartDelayMs: 1_500 });
      expect(res.payload.restart).toMatchObject({ scheduled: true });
    } finally {
      sock.close();
    }
    // Before the restart reads it again.
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), "{ not json");
    expect(await gw.exited).toBe(1);
    expect(gw.output()).toContain("the gateway did not come back after a restart");
    const read = await runCli(["gateway", "stability", "--bundle", "latest", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(read.code, read.output).toBe(0);
    const { bundle } = JSON.parse(read.output);
    expect(bundle).toMatchObject({ reason: "gateway.start_failed", error: { name: "ConfigError" } });
    expect(bundle.snapshot.summary.byType["diagnostic.memory.sample"]).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(bundle)).not.toContain("not json");
  });

  it("a stop past its deadline leaves a bundle that `gateway stability --bundle latest` reads without a gateway", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const dir = path.join(stateDir, "hooks", "stall");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: stall\ndescription: never returns\nmetadata:\n  openclaw:\n    events: ["gateway:shutdown"]\n---\n`);
    fs.writeFileSync(path.join(dir, "handler.js"), "export default () => new Promise(() => setInterval(() => {}, 1_000));\n");
    const hooks = { internal: { timeoutMs: 60_000, entries: { stall: { enabled: true } } } };
    const gw = await start(stateDir, { hooks }, { OPENCLAW_SHUTDOWN_TIMEOUT_MS: "500" });
    expect(await sendOversizedPreauthFrame(gw)).toBe(1009);
    gw.proc.kill("SIGTERM");
    expect(await gw.exited).toBe(1);
    const bundles = fs.readdirSync(path.join(stateDir, "logs", "stability"));
    expect(bundles).toHaveLength(1);
    expect(bundles[0]).toMatch(new RegExp(`^openclaw-stability-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z-${gw.proc.pid}-gateway\\.shutdown_deadline\\.json$`));
    expect(gw.output()).toContain(`stability bundle written: ${path.join(stateDir, "logs", "stability", bundles[0]!)}`);

    const text = await runCli(["gateway", "stability", "--bundle", "latest"], { OPENCLAW_STATE_DIR: stateDir });
    expect(text.code, text.output).toBe(0);
    expect(text.output).toContain("Reason: gateway.shutdown_deadline");
    expect(text.output).toContain(`Process: pid=${gw.proc.pid}`);
    expect(text.output).toContain("Large payloads: total=1 rejected=1");

    const json = await runCli(["gateway", "stability", "--bundle", "--type", "payload.large", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(json.code, json.output).toBe(0);
    const read = JSON.parse(json.output);
    expect(read.path).toBe(path.join(stateDir, "logs", "stability", bundles[0]!));
    expect(read.bundle).toMatchObject({ version: 1, reason: "gateway.shutdown_deadline", host: { hostname: "<redacted-hostname>" } });
    expect(read.bundle.snapshot.events.map((e: { type: string }) => e.type)).toEqual(["payload.large"]);

    const zip = await runCli(["gateway", "stability", "--bundle", "latest", "--export"], { OPENCLAW_STATE_DIR: stateDir });
    expect(zip.code).toBe(1);
    expect(zip.output).toContain("--export and --output (OpenClaw's support diagnostics .zip) are not supported");

    const none = await runCli(["gateway", "stability", "--bundle", "latest"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/no stability bundles in .*logs\/stability/);
  });
});

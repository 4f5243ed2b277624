import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `openclaw system event|heartbeat|presence` against a real gateway process whose agent talks to
 * the fake model: a system event reaches the main session's heartbeat, heartbeats switch off and
 * on, presence lists what the gateway tracks, and the failures name what is wrong.
 */

const servers = useFakeServers();

const HEARTBEAT_EVENTS = "System events since the last heartbeat";

async function startAgentGateway(): Promise<GatewayProcess> {
  const stateDir = makeTempDir("openclaw-system-cli-");
  const config = JSON.parse(fakeModelConfig(servers.model, stateDir));
  // Every 30 min: no beat is due during the test, only the ones a wake asks for.
  config.agents.defaults.heartbeat = { every: "30m" };
  return servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
}

const cliEnv = (gw: GatewayProcess) => ({ OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token!, OPENCLAW_GATEWAY_PORT: String(gw.port) });

/** The user texts of the model requests so far. */
const modelSaw = () => chatRequests(servers.model).map(lastUserText);

describe("openclaw system event", { timeout: 120_000 }, () => {
  it("--mode now queues the text and beats at once: the main session's heartbeat turn carries it", async () => {
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    const gw = await startAgentGateway();
    const env = cliEnv(gw);
    const watcher = await openOperator(gw.url, gw.token);
    try {
      // Before any beat the answer is JSON null, as OpenClaw's CLI prints it.
      const before = await runCli(["system", "heartbeat", "last"], env);
      expect(before.code, before.output).toBe(0);
      expect(before.output).toBe("null\n");

      const beat = watcher.sock.waitFor((f) => f.type === "event" && f.event === "heartbeat", 30_000);
      const sent = await runCli(["system", "event", "--text", "Deploy 42 finished", "--mode", "now"], env);
      expect(sent.code, sent.output).toBe(0);
      expect(sent.output).toBe("ok\n");
      const event = await beat;
      expect(event.payload).toMatchObject({ agentId: "main", status: "ok-token" });
      const heartbeatTurns = modelSaw().filter((text) => text.includes(HEARTBEAT_EVENTS));
      expect(heartbeatTurns).toHaveLength(1);
      expect(heartbeatTurns[0]).toContain("Deploy 42 finished");

      const last = await runCli(["system", "heartbeat", "last"], env);
      expect(last.code, last.output).toBe(0);
      expect(JSON.parse(last.output)).toEqual(event.payload);
      // The main session ran it: the session list has its turn.
      const sessions = await watcher.sock.request("sessions.list", {});
      expect(sessions.payload.sessions.map((s: { key: string }) => s.key)).toContain("agent:main:main");
    } finally {
      watcher.sock.close();
    }
  });

  it("the default mode queues for the next heartbeat; --json prints the gateway's answer", async () => {
    const gw = await startAgentGateway();
    const sent = await runCli(["system", "event", "--text", "Nightly backup done", "--json"], cliEnv(gw));
    expect(sent.code, sent.output).toBe(0);
    expect(JSON.parse(sent.output)).toEqual({ ok: true, queued: "next-heartbeat" });
    // Queued, not run: the beat is 30 minutes away.
    expect(modelSaw()).toEqual([]);
  });

  it("a missing or empty --text, a wrong --mode and an unknown agent's session fail, saying so", async () => {
    const gw = await startAgentGateway();
    const env = cliEnv(gw);
    const missing = await runCli(["system", "event"], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toBe(`openclaw: --text is required: the system event's text (openclaw system event --text "deploy finished")\n`);
    const empty = await runCli(["system", "event", "--text", "   "], env);
    expect(empty.code).toBe(1);
    expect(empty.output).toContain("--text is required");
    const json = await runCli(["system", "event", "--json"], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({ ok: false, error: { type: "cli_error", message: expect.stringContaining("--text is required") } });
    const mode = await runCli(["system", "event", "--text", "x", "--mode", "later"], env);
    expect(mode.code).toBe(1);
    expect(mode.output).toBe('openclaw: --mode: expected now or next-heartbeat, got "later"\n');
    const unknown = await runCli(["system", "event", "--text", "x", "--session-key", "agent:nobody:main", "--json"], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.output).error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining('unknown agent "nobody"') });
    expect(modelSaw()).toEqual([]);
  });
});

describe("openclaw system heartbeat", { timeout: 120_000 }, () => {
  it("disable pauses heartbeats (a wake then runs as a turn of its own), last keeps the last beat, enable turns them back on", async () => {
    servers.model.setResponder((req) => ({ text: lastUserText(req).includes(HEARTBEAT_EVENTS) ? "HEARTBEAT_OK" : "Noted." }));
    const gw = await startAgentGateway();
    const env = cliEnv(gw);
    const watcher = await openOperator(gw.url, gw.token);
    try {
      const beat = watcher.sock.waitFor((f) => f.type === "event" && f.event === "heartbeat", 30_000);
      expect((await runCli(["system", "event", "--text", "first", "--mode", "now"], env)).code).toBe(0);
      const first = (await beat).payload;

      const disabled = await runCli(["system", "heartbeat", "disable"], env);
      expect(disabled.code, disabled.output).toBe(0);
      expect(JSON.parse(disabled.output)).toEqual({ ok: true, enabled: false });
      // No heartbeat beats now: the event is handed to the main session as a turn of its own.
      const woken = await runCli(["system", "event", "--text", "Build broke", "--mode", "now", "--json"], env);
      expect(woken.code, woken.output).toBe(0);
      const answer = JSON.parse(woken.output);
      expect(answer).toMatchObject({ ok: true, queued: "now", runId: expect.any(String) });
      const done = await watcher.sock.request("agent.wait", { runId: answer.runId, timeoutMs: 30_000 }, 35_000);
      expect(done.payload).toMatchObject({ status: "ok" });
      expect(modelSaw().at(-1)).toContain("[System event] Build broke");
      // The last beat is still the one before.
      const last = await runCli(["system", "heartbeat", "last", "--json"], env);
      expect(JSON.parse(last.output)).toEqual(first);

      const enabled = await runCli(["system", "heartbeat", "enable", "--json"], env);
      expect(enabled.code, enabled.output).toBe(0);
      expect(JSON.parse(enabled.output)).toEqual({ ok: true, enabled: true });
      // Beating again: the next event waits for the heartbeat instead of running a turn.
      const queued = await runCli(["system", "event", "--text", "later", "--json"], env);
      expect(JSON.parse(queued.output)).toEqual({ ok: true, queued: "next-heartbeat" });
    } finally {
      watcher.sock.close();
    }
  });
});

describe("openclaw system presence", { timeout: 60_000 }, () => {
  it("prints the gateway's presence entries as JSON: itself and a UI client, not the CLI's own connection", async () => {
    const gw = await startAgentGateway();
    const env = cliEnv(gw);
    const ui = await openOperator(gw.url, gw.token, { client: { id: "openclaw-control-ui", version: "9.9", platform: "web", mode: "ui", instanceId: "tab-7" } });
    try {
      const result = await runCli(["system", "presence"], env);
      expect(result.code, result.output).toBe(0);
      const entries = JSON.parse(result.output) as { mode?: string; reason?: string; instanceId?: string }[];
      expect(entries.some((e) => e.mode === "gateway" && e.reason === "self")).toBe(true);
      expect(entries.some((e) => e.mode === "ui" && e.instanceId === "tab-7")).toBe(true);
      expect(entries.some((e) => e.mode === "cli")).toBe(false);
      // --json prints the same document (and makes failures JSON).
      const json = await runCli(["system", "presence", "--json"], env);
      expect((JSON.parse(json.output) as unknown[]).length).toBe(entries.length);
    } finally {
      ui.sock.close();
    }
  });

  it("no gateway listening: exit 1 naming the address and how to start one", async () => {
    const stateDir = makeTempDir("openclaw-system-cli-none-");
    const result = await runCli(["system", "presence", "--port", "1"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "t" });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^openclaw: .*127\.0\.0\.1:1.*no gateway is running there\. Start one with `openclaw gateway start`/);
  });
});

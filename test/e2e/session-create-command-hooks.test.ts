import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readEvents, writeRecorderHook } from "../helpers/hook-recorder.js";
import { waitUntil } from "../helpers/reliability.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `sessions.create` with `parentSessionKey` and `emitCommandHooks` (OpenClaw's TUI sends it for
 * `/new`): internal hooks hear `command:new` for the parent, as with `/new` in it, through a real
 * gateway over WebSocket with a hook that records what it hears.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let log: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("session-create-hooks-");
  log = path.join(stateDir, "events.jsonl");
  writeRecorderHook(stateDir, log);
  const hooks = { internal: { entries: { recorder: { enabled: true } } } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { hooks }) } });
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
}, 60_000);
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

const commands = () => readEvents(log).filter((e) => e.type === "command");

async function turn(sessionKey: string, message: string, reply: string): Promise<void> {
  model.enqueue({ text: reply });
  const runId = randomUUID();
  await sock.request("chat.send", { sessionKey, message, idempotencyKey: runId });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final");
}

describe("sessions.create with emitCommandHooks", () => {
  it("the TUI's /new request: hooks hear command:new for the parent with its last messages; the parent keeps its conversation", async () => {
    await turn("parent-a", "Remember the blue door", "Noted.");
    // The request OpenClaw's TUI 2026.9.6 sends for `/new` (test/fixtures/tui).
    const created = await sock.request("sessions.create", {
      key: "tui-a",
      agentId: "main",
      parentSessionKey: "agent:main:parent-a",
      succeedsParent: true,
      emitCommandHooks: true,
    });
    expect(created.ok, JSON.stringify(created.error)).toBe(true);
    expect(created.payload.key).toBe("agent:main:tui-a");
    await waitUntil(() => commands().length > 0, 15_000, "command:new for the parent");
    expect(commands()).toEqual([
      {
        type: "command",
        action: "new",
        sessionKey: "agent:main:parent-a",
        context: expect.objectContaining({
          agentId: "main",
          commandSource: "sessions.create",
          messages: [
            { role: "user", text: "Remember the blue door" },
            { role: "assistant", text: "Noted." },
          ],
        }),
      },
    ]);
    const history = await sock.request("chat.history", { sessionKey: "parent-a" });
    expect(history.payload.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);

    // Adopting the same key again is not a new session: nothing more is heard.
    expect((await sock.request("sessions.create", { key: "tui-a", parentSessionKey: "agent:main:parent-a", succeedsParent: true, emitCommandHooks: true })).ok).toBe(true);
    // A child without emitCommandHooks is not announced either.
    expect((await sock.request("sessions.create", { key: "child-quiet", parentSessionKey: "agent:main:parent-a" })).ok).toBe(true);
    await turn("parent-a", "sync point", "ok");
    expect(commands()).toHaveLength(1);
  });

  it("refuses succeedsParent without emitCommandHooks, and a parent still running a turn, creating nothing", async () => {
    await turn("parent-b", "hello", "hi");
    const refused = await sock.request("sessions.create", { key: "tui-b", parentSessionKey: "parent-b", succeedsParent: true });
    expect(refused.error).toMatchObject({ code: "INVALID_REQUEST", message: "succeedsParent needs emitCommandHooks: true" });

    model.enqueue({ text: "slow answer", delayMs: 1_500 });
    const runId = randomUUID();
    await sock.request("chat.send", { sessionKey: "parent-b", message: "take your time", idempotencyKey: runId });
    const busy = await sock.request("sessions.create", { key: "tui-b", parentSessionKey: "parent-b", succeedsParent: true, emitCommandHooks: true });
    expect(busy.error).toMatchObject({ code: "UNAVAILABLE", message: "parent session agent:main:parent-b is still running a turn; try again when it has ended" });
    expect((await sock.request("sessions.describe", { key: "tui-b" })).payload).toEqual({ session: null });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final");
    expect(commands().filter((e) => e.sessionKey === "agent:main:parent-b")).toEqual([]);

    // Once the turn has ended, the same request goes through.
    expect((await sock.request("sessions.create", { key: "tui-b", parentSessionKey: "parent-b", succeedsParent: true, emitCommandHooks: true })).ok).toBe(true);
    await waitUntil(() => commands().some((e) => e.sessionKey === "agent:main:parent-b"), 15_000, "command:new for parent-b");
  });
});

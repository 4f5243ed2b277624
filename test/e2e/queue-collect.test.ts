import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";
import { chatRequests, lastUserText, makeAgentState, removeFastTempDirs, startOn } from "../helpers/reliability.js";

/**
 * `collect` queue mode: messages that arrive while a turn runs wait until the session has been
 * quiet for `messages.queue.debounceMs`, then go to the model as one turn. The running turn may
 * end inside that quiet window; the batch must still start once the window has passed.
 */
const TOKEN = "queue-collect-token";
const DEBOUNCE_MS = 3_000;

let server: FakeModelServer;
let gw: GatewayProcess | undefined;
let rpc: Rpc;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeAgentState(server, { extra: { messages: { queue: { mode: "collect", debounceMs: DEBOUNCE_MS } } } });
  gw = await startOn(stateDir, TOKEN);
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
});

afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

describe("collect mode", () => {
  it("starts the collected batch after the quiet window when the running turn ended inside it", async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstSeen!: () => void;
    const firstArrived = new Promise<void>((resolve) => (firstSeen = resolve));
    server.setResponder(async (request) => {
      const text = lastUserText(request);
      if (text === "first") {
        firstSeen();
        await firstHeld;
      }
      return { text: `A:${text}` };
    });
    const send = (message: string, key: string) => rpc.request("chat.send", { sessionKey: "agent:main:collect", message, idempotencyKey: key });
    expect((await send("first", "c-1")).payload).toMatchObject({ status: "started" });
    await firstArrived;
    // Both wait in the inbox while the first turn holds; the first turn then ends well inside
    // their quiet window.
    expect((await send("second", "c-2")).ok).toBe(true);
    expect((await send("third", "c-3")).ok).toBe(true);
    releaseFirst();
    const first = await rpc.request("agent.wait", { runId: "c-1", timeoutMs: 10_000 }, 15_000);
    expect(first.payload).toMatchObject({ status: "ok" });
    for (const runId of ["c-2", "c-3"]) {
      const waited = await rpc.request("agent.wait", { runId, timeoutMs: 10_000 }, 15_000);
      expect(waited.payload).toMatchObject({ runId, status: "ok" });
    }
    // One model request for the first turn, one for the batch carrying both messages.
    const requests = chatRequests(server);
    expect(requests.length).toBe(2);
    const batch = JSON.stringify(requests[1]!.body);
    expect(batch).toContain("second");
    expect(batch).toContain("third");
  }, 40_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";
import { chatRequests, lastUserText, makeAgentState, removeFastTempDirs, startOn } from "../helpers/reliability.js";

/**
 * `messages.queue.drop: "new"`: a message that arrives when `cap` messages already wait is
 * refused, and its sender is told to send it again. A refused message is not kept: no later
 * turn sees it, so sending it again does not put it before the model twice.
 */
const TOKEN = "queue-refused-token";

let server: FakeModelServer;
let gw: GatewayProcess | undefined;
let rpc: Rpc;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeAgentState(server, { extra: { messages: { queue: { mode: "followup", cap: 1, drop: "new" } } } });
  gw = await startOn(stateDir, TOKEN);
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
});

afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

describe("a message refused by a full queue", () => {
  it("is not part of any later turn's history nor of chat.history", async () => {
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
    const sessionKey = "agent:main:refused";
    const send = (message: string, key: string) => rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
    expect((await send("first", "r-1")).payload).toMatchObject({ status: "started" });
    await firstArrived;
    expect((await send("second", "r-2")).ok).toBe(true);
    const refused = await send("refused-text", "r-3");
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({ code: "INVALID_REQUEST", details: { reason: "queue-full" } });
    releaseFirst();
    for (const runId of ["r-1", "r-2"]) expect((await rpc.request("agent.wait", { runId, timeoutMs: 10_000 }, 15_000)).payload).toMatchObject({ status: "ok" });
    const requests = chatRequests(server);
    expect(requests.length).toBe(2);
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain("refused-text");
    const history = await rpc.request("chat.history", { sessionKey });
    expect(JSON.stringify(history.payload)).not.toContain("refused-text");
  }, 40_000);
});

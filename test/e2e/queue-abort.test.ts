import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";
import { chatRequests, lastUserText, makeAgentState, removeFastTempDirs, requestMessages, startOn } from "../helpers/reliability.js";

/**
 * `chat.abort { runId }` for a message that still waits in the session's queue: that message
 * ends aborted at once and is not answered; the messages waiting with it, and the turn that runs,
 * go on without it.
 */
const TOKEN = "queue-abort-token";

let server: FakeModelServer;
let gw: GatewayProcess | undefined;
let rpc: Rpc;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeAgentState(server, { extra: { messages: { queue: { debounceMs: 300 } } } });
  gw = await startOn(stateDir, TOKEN);
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
});

afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

/** Holds the model's answer to `text` until released; `arrived` settles once it was asked. */
function holdFor(text: string, reply: () => object = () => ({ text: `A:${text}` })) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let seen!: () => void;
  const arrived = new Promise<void>((resolve) => (seen = resolve));
  server.setResponder(async (request) => {
    const messages = requestMessages(request);
    if (messages.at(-1)?.role === "user" && messages.at(-1)?.text === text) {
      seen();
      await held;
      return reply();
    }
    return { text: `A:${lastUserText(request)}` };
  });
  return { release, arrived };
}

const wait = (runId: string) => rpc.request("agent.wait", { runId, timeoutMs: 5_000 }, 10_000);

describe("aborting one queued message", () => {
  it("collect: the aborted message ends at once and the rest of its batch still runs without it", async () => {
    server.reset();
    const sessionKey = "agent:main:abort-collect";
    const first = holdFor("c-first");
    const send = (message: string, key: string) => rpc.request("chat.send", { sessionKey, message, idempotencyKey: key, queueMode: "collect" });
    expect((await send("c-first", "c-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("c-second", "c-2")).ok).toBe(true);
    expect((await send("c-third", "c-3")).ok).toBe(true);
    const aborted = await rpc.request("chat.abort", { sessionKey, runId: "c-2" });
    expect(aborted.payload).toMatchObject({ aborted: true, runIds: ["c-2"] });
    // Ended while the first turn still runs.
    expect((await wait("c-2")).payload).toMatchObject({ runId: "c-2", status: "error", error: "aborted" });
    first.release();
    expect((await wait("c-1")).payload).toMatchObject({ status: "ok" });
    expect((await wait("c-3")).payload).toMatchObject({ runId: "c-3", status: "ok" });
    const requests = chatRequests(server);
    expect(requests.length).toBe(2);
    expect(JSON.stringify(requests[1]!.body)).toContain("c-third");
    expect(lastUserText(requests[1]!)).not.toContain("c-second");
  }, 40_000);

  it("steer: a steered message aborted before the running turn took it is not handed to that turn", async () => {
    server.reset();
    const sessionKey = "agent:main:abort-steer";
    // The first answer is a tool call, so the turn makes a second model call (where steering is taken).
    const first = holdFor("s-first", () => ({ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] }));
    const send = (message: string, key: string) => rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
    expect((await send("s-first", "s-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("s-second", "s-2")).ok).toBe(true);
    const aborted = await rpc.request("chat.abort", { sessionKey, runId: "s-2" });
    expect(aborted.payload).toMatchObject({ aborted: true, runIds: ["s-2"] });
    expect((await wait("s-2")).payload).toMatchObject({ runId: "s-2", status: "error", error: "aborted" });
    first.release();
    expect((await wait("s-1")).payload).toMatchObject({ status: "ok" });
    const requests = chatRequests(server);
    expect(requests.length).toBe(2);
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain("s-second");
  }, 40_000);
});

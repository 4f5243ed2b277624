import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RawData } from "ws";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { makeAgentState, removeFastTempDirs, startOn } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * A long reply streamed in thousands of chunks must not flood operator connections: the bytes
 * a connection receives for the run grow linearly with the reply (deltas coalesced, the
 * cumulative copy sent only as the reply grows by a fraction), and both the `agent` assistant
 * stream and the `chat` deltas still rebuild the exact reply.
 */

const TOKEN = "stream-bytes-token";
const REPLY_BYTES = 30_000;
const CHUNKS = 3_000;
let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let rpc: Rpc;
const runBytes = new Map<string, number>();

beforeAll(async () => {
  server = await startFakeModelServer();
  gw = await startOn(makeAgentState(server), TOKEN);
  sock = (await openOperator(gw.url, TOKEN)).sock;
  rpc = new Rpc(sock);
  sock.ws.on("message", (data: RawData) => {
    const text = data.toString();
    const runId = /"runId":"([^"]+)"/.exec(text)?.[1];
    if (runId) runBytes.set(runId, (runBytes.get(runId) ?? 0) + Buffer.byteLength(text));
  });
});
afterAll(async () => {
  sock?.ws.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

function reply(): string {
  const words: string[] = [];
  for (let i = 0; words.join(" ").length < REPLY_BYTES; i += 1) words.push(`word${i}`);
  return words.join(" ").slice(0, REPLY_BYTES);
}

describe("streamed replies on operator connections", () => {
  it(`a ${REPLY_BYTES / 1000} KB reply in ${CHUNKS} chunks costs bytes linear in the reply, and rebuilds exactly`, async () => {
    const text = reply();
    server.enqueue({ text, textChunks: CHUNKS, chunkDelayMs: 1 });
    const sent = await rpc.request("chat.send", { sessionKey: "long-reply", message: "write a lot", idempotencyKey: "long-1" });
    expect(sent.ok).toBe(true);
    const waited = await rpc.request("agent.wait", { runId: "long-1", timeoutMs: 90_000 }, 95_000);
    expect(waited.payload.status).toBe("ok");
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === "long-1" && f.payload.state === "final", 10_000);

    const frames = sock.frames.filter((f) => f.type === "event" && f.payload?.runId === "long-1");
    const assistant = frames.filter((f) => f.event === "agent" && f.payload.stream === "assistant").map((f) => f.payload.data);
    const deltas = frames.filter((f) => f.event === "chat" && f.payload.state === "delta").map((f) => f.payload);
    expect(assistant.map((d) => d.delta).join("")).toBe(text);
    expect(deltas.map((d) => d.deltaText).join("")).toBe(text);
    // The cumulative copies are prefixes of the reply, and the last one is all of it.
    for (const d of assistant) if (d.text !== undefined) expect(text.startsWith(d.text)).toBe(true);
    expect(assistant.at(-1)!.text).toBe(text);
    // Coalesced: far fewer events than chunks.
    expect(assistant.length).toBeLessThan(CHUNKS / 4);

    // Every byte this connection received for the run, envelopes included. Cumulative copies
    // cost at most 5× the reply per stream (each follows 1/4 growth), deltas 1× each.
    const bytes = runBytes.get("long-1") ?? 0;
    expect(bytes).toBeGreaterThan(2 * REPLY_BYTES);
    expect(bytes).toBeLessThan(15 * REPLY_BYTES);
  }, 120_000);
});

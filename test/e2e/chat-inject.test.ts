import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastMessageOf, messagesOf } from "../helpers/model-request.js";
import { makeAgentState, removeFastTempDirs, startOn, waitUntil } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * chat.inject in a real gateway: an operator's assistant note goes into the conversation with no
 * run and no model call, reaches followers as one chat event, survives a kill -9, is what the next
 * turn sees, waits for a run in progress, and needs admin.
 */
const TOKEN = "chat-inject-token";
const SESSION = "agent:main:notes";

let model: FakeModelServer;
let stateDir: string;
let gw: GatewayProcess;
let sock: TestSocket;
let releaseHeld: (() => void) | undefined;

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeAgentState(model);
  gw = await startOn(stateDir, TOKEN);
  sock = (await openOperator(gw.url, TOKEN, { scopes: ["operator.admin"] })).sock;
  model.setResponder(async (req) => {
    const last = lastMessageOf(req);
    if (last.text === "long task") await new Promise<void>((resolve) => (releaseHeld = resolve));
    return { text: `answer to ${last.text}` };
  });
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await model?.close();
  removeFastTempDirs();
});

const inject = (params: Record<string, unknown>, on: TestSocket = sock) => on.request("chat.inject", { sessionKey: SESSION, ...params });

describe("chat.inject", { timeout: 90_000 }, () => {
  it("writes an assistant note with no run; followers get one final chat event; chat.history shows it", async () => {
    await askAndWait(sock, SESSION, "hello");
    const calls = chatRequests(model.requests).length;
    const res = await inject({ message: "The deploy finished at 14:02.", label: "ops" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({ ok: true, messageId: expect.any(String) });
    const event = await sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === `inject-${res.payload.messageId}`, 5_000);
    expect(event.payload).toMatchObject({ sessionKey: SESSION, agentId: "main", seq: 0, state: "final" });
    expect(event.payload.message).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "[ops]\n\nThe deploy finished at 14:02." }],
      provider: "openclaw",
      model: "gateway-injected",
    });
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 10 })).payload.messages;
    expect(history.at(-1)).toMatchObject({ role: "assistant", __openclaw: { id: res.payload.messageId } });
    expect(chatRequests(model.requests)).toHaveLength(calls);
  });

  it("is on disk when answered (kill -9) and the next turn sees it as the agent's words", async () => {
    sock.close();
    await gw.stop("SIGKILL");
    gw = await startOn(stateDir, TOKEN);
    sock = (await openOperator(gw.url, TOKEN, { scopes: ["operator.admin"] })).sock;
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 10 })).payload.messages;
    expect(history.at(-1)).toMatchObject({ role: "assistant", model: "gateway-injected", content: [{ type: "text", text: "[ops]\n\nThe deploy finished at 14:02." }] });
    await askAndWait(sock, SESSION, "when did it finish?");
    const sent = messagesOf(chatRequests(model.requests).at(-1)!);
    const note = sent.find((m) => m.role === "assistant" && JSON.stringify(m.content).includes("The deploy finished at 14:02."));
    expect(note).toBeDefined();
    expect(sent.indexOf(note!)).toBeLessThan(sent.length - 1);
  });

  it("waits for a run in progress and lands after its answer", async () => {
    const longTask = randomUUID();
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "long task", idempotencyKey: longTask })).ok).toBe(true);
    await waitUntil(() => releaseHeld !== undefined, 10_000, "the held model call");
    let answered = false;
    const pending = inject({ message: "A note written during the run." }).then((res) => {
      answered = true;
      return res;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    releaseHeld!();
    const res = await pending;
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    const texts = (await sock.request("chat.history", { sessionKey: SESSION, limit: 4 })).payload.messages.map((m: any) => m.content[0]?.text);
    expect(texts.slice(-3)).toEqual(["long task", "answer to long task", "A note written during the run."]);
  });

  it("refuses a missing session, an empty message, a long label, and a caller without admin", async () => {
    expect((await inject({ sessionKey: "agent:main:nowhere", message: "x" })).error).toMatchObject({ code: "INVALID_REQUEST", message: "session not found: agent:main:nowhere" });
    expect((await inject({ message: "" })).error?.code).toBe("INVALID_REQUEST");
    expect((await inject({ message: "x", label: "l".repeat(101) })).error?.code).toBe("INVALID_REQUEST");
    const { sock: writer } = await openOperator(gw.url, TOKEN, { scopes: ["operator.write"] });
    try {
      expect((await inject({ message: "x" }, writer)).ok).toBe(false);
    } finally {
      writer.close();
    }
  });
});

import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { FakeModelServer } from "../fakes/model-server.js";
import { chatRequests, requestMessages } from "./reliability.js";
import type { Frame, TestSocket } from "./ws-client.js";

/** Sends a message and waits for the run's final (or error/aborted) chat event. */
export async function askAndWait(sock: TestSocket, sessionKey: string, message: string, timeoutMs = 20_000): Promise<Frame> {
  const key = randomUUID();
  const res = await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  expect(res.ok).toBe(true);
  return sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error", "aborted"].includes(f.payload.state), timeoutMs);
}

/**
 * `agent` for the main agent, `to` a peer on `channel`, with `deliver: false` (nothing is sent
 * there): waits for the final response and expects "ok". Returns the texts of the messages the
 * model was sent last, i.e. the session the turn continued.
 */
export async function agentTurnTo(sock: TestSocket, model: FakeModelServer, channel: string, to: string): Promise<string[]> {
  const ack = await sock.request("agent", { message: `via ${to}`, agentId: "main", to, channel, deliver: false, idempotencyKey: randomUUID() });
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  const final = await sock.waitFor((f) => f.type === "res" && f.id === ack.id && f.payload?.status !== "accepted", 20_000);
  expect(final.payload.status).toBe("ok");
  return requestMessages(chatRequests(model).at(-1)!).map((m) => m.text);
}

export async function chatHistory(sock: TestSocket, sessionKey: string): Promise<any[]> {
  return (await sock.request("chat.history", { sessionKey, limit: 1000 })).payload.messages;
}

/** Transcript messages that are sub-agent announcements. */
export async function announcementsIn(sock: TestSocket, sessionKey: string): Promise<any[]> {
  return (await chatHistory(sock, sessionKey)).filter((m) => m.role === "user" && m.provenance?.kind === "internal_system");
}

/** Retries `check` until it passes: for outcomes that arrive on their own, after the request that caused them. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function messageText(m: any): string {
  return typeof m.content === "string" ? m.content : m.content.map((b: any) => b.text ?? "").join("");
}

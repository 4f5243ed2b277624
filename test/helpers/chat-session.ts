import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Frame, TestSocket } from "./ws-client.js";

/** Sends a message and waits for the run's final (or error/aborted) chat event. */
export async function askAndWait(sock: TestSocket, sessionKey: string, message: string, timeoutMs = 20_000): Promise<Frame> {
  const key = randomUUID();
  const res = await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  expect(res.ok).toBe(true);
  return sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error", "aborted"].includes(f.payload.state), timeoutMs);
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

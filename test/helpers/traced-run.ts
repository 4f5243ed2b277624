import { randomUUID } from "node:crypto";
import { expect, vi } from "vitest";
import type { FakeModelServer, FakeReply } from "../fakes/model-server.js";
import type { TestSocket } from "./ws-client.js";

/** Runs a chat turn the fake model answers with `replies` and waits until its trace is stored (a moment after the run ends); its run id. */
export async function tracedRun(operator: TestSocket, model: FakeModelServer, sessionKey: string, message: string, ...replies: FakeReply[]): Promise<string> {
  const runId = randomUUID();
  model.enqueue(...replies);
  expect((await operator.request("chat.send", { sessionKey, message, idempotencyKey: runId })).ok).toBe(true);
  await vi.waitFor(
    async () => {
      const got = await operator.request("traces.get", { runId });
      if (!got.ok) throw new Error(`no trace of ${runId} yet: ${got.error.message}`);
    },
    { timeout: 30_000, interval: 100 },
  );
  return runId;
}

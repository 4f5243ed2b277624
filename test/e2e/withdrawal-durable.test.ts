import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/cron/clock.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir } from "../helpers/gateway-process.js";
import { startInProcessGateway, type InProcessGateway } from "../helpers/in-process-gateway.js";
import { sendBehindHeldAnswer } from "../helpers/queue-gateway.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A message aborted while it waits is taken out of the conversation by a marker appended to its
 * transcript. `chat.abort` and `/stop` answer only once that marker is on disk (its fsync runs off
 * the event loop): an answer given before would let a crash bring the message back. The gateway
 * runs in the test process so the test can make the disk refuse that fsync: the answer then says
 * so instead of claiming the message is gone.
 */
let model: FakeModelServer;
let gw: InProcessGateway;
let rpc: Rpc;
/** While true, every fsync fails as a full disk makes it fail. */
let diskFails = false;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-withdrawal-durable-");
  gw = await startInProcessGateway({ stateDir, config: fakeModelConfig(model, stateDir, { messages: { queue: { mode: "followup" } } }), cronClock: systemClock });
  rpc = new Rpc((await openOperator(gw.url, gw.token)).sock);
  const fsync = fs.fsync;
  vi.spyOn(fs, "fsync").mockImplementation(((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
    if (!diskFails) return fsync(fd, callback);
    callback(Object.assign(new Error("ENOSPC: no space left on device, fsync"), { code: "ENOSPC", syscall: "fsync" }));
  }) as typeof fs.fsync);
});
afterEach(() => {
  diskFails = false;
});
afterAll(async () => {
  vi.restoreAllMocks();
  rpc?.sock.close();
  await gw?.stop();
  await model?.close();
});

/** `queued` waits in `sessionKey`'s queue behind a turn whose answer is held. */
function queueBehindHeldTurn(sessionKey: string, queued: string) {
  const send = (message: string, idempotencyKey: string) => rpc.request("chat.send", { sessionKey, message, idempotencyKey });
  return sendBehindHeldAnswer(model, send, [`${queued}-first`, `${queued}-1`], [[queued, queued]]);
}

describe("an abort that withdraws a waiting message", () => {
  const aborts = [
    { how: "chat.abort", p: "da", abort: (sessionKey: string, runId: string) => rpc.request("chat.abort", { sessionKey, runId }) },
    { how: "/stop", p: "ds", abort: (sessionKey: string) => rpc.request("chat.send", { sessionKey, message: "/stop", idempotencyKey: `${sessionKey}:stop` }) },
  ];
  for (const { how, p, abort } of aborts) {
    it(`${how} answers only once the withdrawal is on disk: a disk that refuses it makes the answer an error`, async () => {
      const sessionKey = `agent:main:durable-${p}`;
      const { release } = await queueBehindHeldTurn(sessionKey, `${p}-2`);
      diskFails = true;
      const answer = await abort(sessionKey, `${p}-2`);
      diskFails = false;
      release();
      expect(answer.ok, JSON.stringify(answer.payload)).toBe(false);
      expect(answer.error?.message).toMatch(/could not write to the state dir.*the disk is full/);
    });
  }

  it("with a working disk chat.abort answers that the message was aborted", async () => {
    const { release } = await queueBehindHeldTurn("agent:main:durable-ok", "do-2");
    const answer = await rpc.request("chat.abort", { sessionKey: "agent:main:durable-ok", runId: "do-2" });
    release();
    expect(answer.payload).toMatchObject({ ok: true, aborted: true, runIds: ["do-2"] });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { lastUserText } from "../helpers/reliability.js";
import { useRpcGateway } from "../helpers/rpc-gateway.js";

/**
 * A provider that answers with headers and then only keep-alive comments must not hold its turn
 * for good, nor starve other sessions: ten such turns on a lane cap of four all end with an error
 * naming the model and the key to raise, and an unrelated session is answered meanwhile.
 */

const TOKEN = "stalled-model-token";
const STALLED = 10;

const fixture = useRpcGateway(TOKEN, {
  agentDefaults: { maxConcurrent: 4 },
  configure: (config) => Object.assign(config.models.providers.fake, { firstByteTimeoutSeconds: 2, idleTimeoutSeconds: 2 }),
});
beforeAll(() => {
  fixture.server.setResponder((req) => (lastUserText(req).startsWith("stall") ? { stall: "headers", keepAliveMs: 100 } : { text: `answer to ${lastUserText(req)}` }));
});

describe("stalled model streams", () => {
  it("ten stalled sessions end with a clear error and do not starve an unrelated session", async () => {
    for (let i = 0; i < STALLED; i += 1) {
      const res = await fixture.rpc.request("chat.send", { sessionKey: `stalled-${i}`, message: `stall ${i}`, idempotencyKey: `stall-${i}` });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
    }
    const unrelated = await fixture.rpc.request("chat.send", { sessionKey: "unrelated", message: "hello", idempotencyKey: "unrelated-1" });
    expect(unrelated.ok).toBe(true);
    const waited = await fixture.rpc.request("agent.wait", { runId: "unrelated-1", timeoutMs: 60_000 }, 65_000);
    expect(waited.payload.status).toBe("ok");
    const history = await fixture.rpc.request("chat.history", { sessionKey: "unrelated" });
    expect(JSON.stringify(history.payload.messages)).toContain("answer to hello");

    for (let i = 0; i < STALLED; i += 1) {
      const stalled = await fixture.rpc.request("agent.wait", { runId: `stall-${i}`, timeoutMs: 60_000 }, 65_000);
      expect(stalled.payload.status).toBe("error");
      expect(stalled.payload.error).toContain("model fake/fake-model sent nothing for 2 s");
      expect(stalled.payload.error).toContain("models.providers.fake.firstByteTimeoutSeconds");
    }
    // Each stalled session still answers once its model does.
    const again = await fixture.rpc.request("chat.send", { sessionKey: "stalled-0", message: "hello again", idempotencyKey: "stall-0-again" });
    expect(again.ok).toBe(true);
    const ok = await fixture.rpc.request("agent.wait", { runId: "stall-0-again", timeoutMs: 30_000 }, 35_000);
    expect(ok.payload.status).toBe("ok");
  }, 120_000);
});

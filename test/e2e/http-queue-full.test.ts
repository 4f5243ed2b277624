import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { holdAnswersTo } from "../helpers/queue-gateway.js";
import { postToSession } from "../helpers/session-post.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A `/v1/chat/completions` request the session's full queue refuses (`messages.queue.drop: new`)
 * is the gateway's own limit, not the model provider's: 429 with the queue's notice, not 502.
 */
const fakes = useFakeModelGateway({
  configure: (config) => {
    config.messages = { queue: { mode: "followup", cap: 1, drop: "new" } };
  },
});

const SESSION = "agent:main:http-queue-full";

function complete(content: string): Promise<Response> {
  return postToSession(fakes.gw, "/v1/chat/completions", SESSION, { model: "openclaw", messages: [{ role: "user", content }] });
}

describe("HTTP turns and a full session queue", () => {
  it("a request the full queue refuses answers 429 with the queue's notice; the running and the queued one are answered", async () => {
    const [held] = holdAnswersTo(fakes.model, ["running"]);
    const running = complete("running");
    await held!.arrived;
    const queued = complete("queued");
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    // The queued message is in the session's transcript before the next one arrives.
    for (const deadline = Date.now() + 10_000; !JSON.stringify((await sock.request("chat.history", { sessionKey: SESSION })).payload).includes("queued"); ) {
      if (Date.now() > deadline) throw new Error("the queued message was not accepted within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sock.close();
    const refused = await complete("refused");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { message: expect.stringMatching(/queue/), type: "api_error", code: "queue_full" } });
    held!.release();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
  }, 60_000);
});

import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { holdAnswersTo } from "../helpers/queue-gateway.js";
import { postToSession } from "../helpers/session-post.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `/v1/chat/completions` and `/v1/responses` turns the gateway's graceful stop (SIGTERM) cuts, or
 * that were still waiting for a slot, answer 503 with an OpenAI error saying the gateway is
 * shutting down and to send the request again: the request was fine, the server went away.
 */
const fakes = useFakeModelGateway({
  configure: (config) => {
    config.agents.defaults.maxConcurrent = 2;
    config.gateway.http.endpoints.responses = { enabled: true };
  },
});

const post = (path: string, sessionKey: string, body: Record<string, unknown>) => postToSession(fakes.gw, path, sessionKey, body);

describe("HTTP turns when the gateway shuts down", () => {
  it("a running chat completion and response, and one waiting for a slot, answer 503 saying the gateway is shutting down", async () => {
    const [chatHeld, responseHeld] = holdAnswersTo(fakes.model, ["cut-chat", "cut-response"]);
    const chat = post("/v1/chat/completions", "agent:main:http-cut-chat", { model: "openclaw", messages: [{ role: "user", content: "cut-chat" }] });
    const response = post("/v1/responses", "agent:main:http-cut-response", { model: "openclaw", input: "cut-response" });
    await Promise.all([chatHeld!.arrived, responseHeld!.arrived]);
    const waiting = post("/v1/chat/completions", "agent:main:http-waiting", { model: "openclaw", messages: [{ role: "user", content: "waiting" }] });
    // Accepted and waiting for a slot: its session exists before the stop begins.
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    for (const deadline = Date.now() + 10_000; !(await sock.request("sessions.describe", { key: "agent:main:http-waiting" })).ok; ) {
      if (Date.now() > deadline) throw new Error("the waiting turn was not accepted within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sock.close();
    const exited = fakes.gw.stop("SIGTERM");
    for (const [name, pending, message] of [
      ["chat completion", chat, /^the gateway shut down while this message was being answered; send it again/],
      ["response", response, /^the gateway shut down while this message was being answered; send it again/],
      ["waiting chat completion", waiting, /^the gateway shut down before this message was answered; send it again/],
    ] as const) {
      const res = await pending;
      expect(res.status, name).toBe(503);
      expect(await res.json(), name).toEqual({ error: { message: expect.stringMatching(message), type: "api_error", code: "gateway_shutting_down" } });
    }
    chatHeld!.release();
    responseHeld!.release();
    await exited;
  }, 60_000);
});

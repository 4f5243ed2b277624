import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelApi } from "../../../src/agents/types.js";
import { createStreamModel } from "../../../src/models/index.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run } from "./stream-helpers.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

describe("createStreamModel", () => {
  it("dispatches on the model's api", async () => {
    const streamModel = createStreamModel();
    server.enqueue({ text: "via anthropic" }, { text: "via openai" });
    const a = last(await run(streamModel, makeRequest(fakeModel(server, "anthropic-messages"))));
    const o = last(await run(streamModel, makeRequest(fakeModel(server, "openai-completions"))));
    expect(a.type === "done" && a.message.content).toEqual([{ type: "text", text: "via anthropic" }]);
    expect(o.type === "done" && o.message.content).toEqual([{ type: "text", text: "via openai" }]);
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/chat/completions"]);
  });

  it("answers an unknown api with a config error event, not a throw", async () => {
    const model = fakeModel(server, "google-generative-ai" as ModelApi);
    const events = await run(createStreamModel(), makeRequest(model));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", kind: "config", retryable: false, message: { stopReason: "error" } });
  });
});

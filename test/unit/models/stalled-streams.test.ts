import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isSelfHosted } from "../../../src/models/local-base-url.js";
import { streamDeadlines } from "../../../src/models/stream-watchdog.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run, terminalCount, textOf } from "./stream-helpers.js";
import { PROVIDER_STREAMS } from "./provider-streams.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const SHORT = { firstByteTimeoutSeconds: 0.4, idleTimeoutSeconds: 0.4 };

describe.each(PROVIDER_STREAMS)("$api: a stalled stream ends as a timeout", ({ api, stream }) => {
  it("headers, then nothing: the first-byte deadline ends the call, naming the model and the key", async () => {
    server.enqueue({ stall: "headers" });
    const events = await run(stream, makeRequest(fakeModel(server, api, SHORT)));
    expect(terminalCount(events)).toBe(1);
    const end = last(events);
    expect(end).toMatchObject({ type: "error", kind: "timeout", retryable: true });
    if (end.type !== "error") throw new Error("unreachable");
    expect(end.error).toContain(`model fake/${api} sent nothing for 0.4 s`);
    expect(end.error).toContain("models.providers.fake.firstByteTimeoutSeconds");
  });

  it("keep-alive comments are not progress", async () => {
    server.enqueue({ stall: "headers", keepAliveMs: 50 });
    const end = last(await run(stream, makeRequest(fakeModel(server, api, SHORT))));
    expect(end).toMatchObject({ type: "error", kind: "timeout" });
  });

  it("a reply that stops half-way ends on the idle deadline", async () => {
    server.enqueue({ stall: "mid-reply", keepAliveMs: 50 });
    const events = await run(stream, makeRequest(fakeModel(server, api, { firstByteTimeoutSeconds: 30, idleTimeoutSeconds: 0.4 })));
    const end = last(events);
    expect(end).toMatchObject({ type: "error", kind: "timeout" });
    if (end.type !== "error") throw new Error("unreachable");
    expect(end.error).toContain("stopped sending for 0.4 s in the middle of its reply");
    expect(end.error).toContain("models.providers.fake.idleTimeoutSeconds");
  });

  it("a slow but steady reply is not cut: each chunk restarts the idle deadline", async () => {
    const text = "a slow reply arriving piece by piece well past one idle deadline";
    server.enqueue({ text, chunkDelayMs: 100 });
    const events = await run(stream, makeRequest(fakeModel(server, api, { firstByteTimeoutSeconds: 5, idleTimeoutSeconds: 1.5 })));
    expect(last(events).type).toBe("done");
    expect(textOf(events)).toBe(text);
  });
});

describe("stream deadlines", () => {
  const model = (baseUrl: string, extra = {}) => ({ ...fakeModel(server, "openai-completions"), baseUrl, ...extra });

  it("cloud endpoints get 300 s to the first byte and 120 s between events; self-hosted ones 600 s and 300 s", () => {
    expect(streamDeadlines(model("https://api.openai.com/v1"))).toEqual({ firstByteMs: 300_000, idleMs: 120_000 });
    expect(streamDeadlines(model("http://127.0.0.1:11434/v1"))).toEqual({ firstByteMs: 600_000, idleMs: 300_000 });
  });

  it("timeoutSeconds widens a default; explicit deadlines win", () => {
    expect(streamDeadlines(model("https://api.openai.com/v1", { timeoutSeconds: 200 }))).toEqual({ firstByteMs: 300_000, idleMs: 200_000 });
    expect(streamDeadlines(model("https://api.openai.com/v1", { timeoutSeconds: 200, idleTimeoutSeconds: 30 }))).toEqual({ firstByteMs: 300_000, idleMs: 30_000 });
  });

  it("knows self-hosted addresses", () => {
    for (const url of ["http://localhost:1234", "http://10.1.2.3", "http://192.168.1.5:8080", "http://[::1]:11434", "http://gpu.local", "http://172.20.0.2"])
      expect(isSelfHosted(url)).toBe(true);
    for (const url of ["https://api.anthropic.com", "https://8.8.8.8", "http://172.32.0.1", undefined]) expect(isSelfHosted(url)).toBe(false);
  });
});

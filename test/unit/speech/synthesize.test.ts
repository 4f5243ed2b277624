import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type SpeechHost, synthesizeSpeech } from "../../../src/agents/speech/index.js";
import { FAKE_MP3, FAKE_OGG_OPUS, type FakeSpeechServer, startFakeSpeechServer } from "../../fakes/speech-server.js";

const KEY = "sk-speech-unit-4b1d9e";
let server: FakeSpeechServer;
let host: SpeechHost;

beforeAll(async () => {
  server = await startFakeSpeechServer();
  host = { provider: "openai", model: "gpt-4o-mini-tts", voice: "coral", baseUrl: `${server.url}/v1`, apiKey: KEY, timeoutMs: 10_000, maxTextLength: 50 };
});
afterAll(() => server.close());
afterEach(() => server.reset());

const signal = () => new AbortController().signal;

describe("synthesizeSpeech over OpenAI's /audio/speech", () => {
  it("asks for Ogg/Opus for Telegram and gets a voice-note file back", async () => {
    const result = await synthesizeSpeech(host, { text: " Hello there ", channel: "telegram" }, signal());
    expect(result).toEqual({ ok: true, speech: { bytes: FAKE_OGG_OPUS, format: "opus", extension: "ogg", mimeType: "audio/ogg", voiceCompatible: true } });
    expect(server.requests).toEqual([{ authorization: `Bearer ${KEY}`, body: { model: "gpt-4o-mini-tts", voice: "coral", input: "Hello there", response_format: "opus" } }]);
  });

  it("asks for MP3 elsewhere, and the configured format, instructions, speed and extra body always", async () => {
    expect(await synthesizeSpeech(host, { text: "hi", channel: "discord" }, signal())).toMatchObject({
      ok: true,
      speech: { bytes: FAKE_MP3, format: "mp3", voiceCompatible: false },
    });
    const configured = { ...host, responseFormat: "wav" as const, instructions: "slowly", speed: 0.9, extraBody: { lang: "en", ["__proto__"]: {} } };
    expect(await synthesizeSpeech(configured, { text: "hi", channel: "telegram" }, signal())).toMatchObject({ ok: true, speech: { format: "wav", mimeType: "audio/wav" } });
    expect(server.requests[1]!.body).toEqual({ model: "gpt-4o-mini-tts", voice: "coral", input: "hi", response_format: "wav", instructions: "slowly", speed: 0.9, lang: "en" });
  });

  it("refuses empty text and text over maxTextLength without calling the provider", async () => {
    expect(await synthesizeSpeech(host, { text: "  " }, signal())).toEqual({ ok: false, failure: { kind: "invalid", reason: "there is no text to speak" } });
    expect(await synthesizeSpeech(host, { text: "x".repeat(51) }, signal())).toEqual({
      ok: false,
      failure: { kind: "invalid", reason: "the text is 51 characters; at most 50 are spoken (tts.maxTextLength)" },
    });
    expect(server.requests).toHaveLength(0);
  });

  it("a refused key is an auth failure that never names the key", async () => {
    server.failWith = 401;
    const result = await synthesizeSpeech(host, { text: "hi" }, signal());
    expect(result).toEqual({ ok: false, failure: { kind: "auth", reason: "HTTP 401: the provider refused the API key" } });
  });

  it("a server failure carries the provider's message with the key masked", async () => {
    server.failWith = 500;
    const result = await synthesizeSpeech(host, { text: "hi" }, signal());
    expect(result).toEqual({ ok: false, failure: { kind: "failed", reason: "HTTP 500 (the provider's server failed): upstream failure for key Bearer [redacted]" } });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it("a provider slower than the call's timeoutMs is a timeout", async () => {
    server.hang = true;
    const result = await synthesizeSpeech(host, { text: "hi", timeoutMs: 200 }, signal());
    expect(result).toEqual({ ok: false, failure: { kind: "timeout", reason: "no audio within 200 ms (timeoutMs)" } });
  });

  it("an unreachable provider says which host", async () => {
    const result = await synthesizeSpeech({ ...host, baseUrl: "http://127.0.0.1:1/v1" }, { text: "hi" }, signal());
    expect(result).toMatchObject({ ok: false, failure: { kind: "failed", reason: expect.stringContaining("127.0.0.1:1 could not be reached") } });
  });
});

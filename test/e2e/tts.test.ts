import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer, RecordedRequest } from "../fakes/model-server.js";
import { FAKE_MP3, FAKE_OGG_OPUS, type FakeSpeechServer, startFakeSpeechServer } from "../fakes/speech-server.js";
import { type FakeTelegram, startFakeTelegram } from "../fakes/telegram-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { openOperator } from "../helpers/ws-client.js";
import { chatRequests, lastMessageOf, lastToolResultOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Text to speech in a real gateway process: the fake model calls `tts`, the gateway asks a fake
 * OpenAI speech endpoint (tts.providers.openai), saves the audio in the agent's workspace and
 * posts it to the Telegram DM the turn answers as a voice note (sendVoice, Ogg/Opus).
 */
const SPEECH_KEY = "sk-speech-e2e-93ab51c7";
const OWNER = 4242;
let speech: FakeSpeechServer;
let telegram: FakeTelegram;
let messageId = 1;

// Before the gateways' hooks (registered below): their configs need the servers' URLs.
beforeAll(async () => {
  speech = await startFakeSpeechServer();
  telegram = await startFakeTelegram({ botUsername: "speech_bot" });
});
afterAll(async () => {
  await speech?.close();
  await telegram?.close();
});
afterEach(() => speech.reset());

/** The model calls tts with `args` when the user's message holds `ask`, then answers "done" once it has the result. */
function callTts(model: FakeModelServer, ask: string, args: Record<string, unknown>): void {
  model.setResponder((req) => {
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text.includes(ask)) return { toolCalls: [{ name: "tts", arguments: args }] };
    return { text: "done" };
  });
}

/** What tts returned, as the model's next request carries it. */
function toolResultAfter(requests: readonly RecordedRequest[]): Record<string, any> {
  const request = chatRequests(requests).find((r) => lastMessageOf(r).role === "tool");
  if (!request) throw new Error("no model request carried a tool result");
  return lastToolResultOf(request)!;
}

/** Pushes a DM from the owner and waits until the turn's final "done" reached the chat. */
async function dmAndWait(text: string): Promise<void> {
  const before = telegram.messages(OWNER).length;
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text, messageId: messageId++ });
  await telegram.waitFor(
    () =>
      telegram
        .messages(OWNER)
        .slice(before)
        .some((m) => m.text === "done"),
    15_000,
  );
}

describe("with OpenAI speech set up and a Telegram DM", () => {
  const fakes = useFakeModelGateway({
    operator: true,
    // No key from the developer's shell: the one in the config is the one sent.
    env: { OPENAI_API_KEY: "" },
    extra: () => ({
      channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) },
      tts: { timeoutMs: 10_000, providers: { openai: { apiKey: SPEECH_KEY, baseUrl: `${speech.url}/v1`, speakerVoice: "alloy" } } },
    }),
  });
  beforeAll(async () => {
    await fakes.gw.waitForOutput(/channel account started/, 10_000);
  });
  const workspace = () => path.join(fakes.stateDir, "workspace");

  it("the model's tts call reaches the chat as a voice note: Ogg/Opus asked for, sendVoice with the bytes, the file in the workspace", async () => {
    callTts(fakes.model, "say hello aloud", { text: "Hello from the gateway" });
    const uploadsBefore = telegram.uploads.length;
    await dmAndWait("please say hello aloud");

    expect(toolNamesOf(chatRequests(fakes.model.requests)[0]!)).toContain("tts");
    expect(speech.requests).toEqual([
      { authorization: `Bearer ${SPEECH_KEY}`, body: { model: "gpt-4o-mini-tts", voice: "alloy", input: "Hello from the gateway", response_format: "opus" } },
    ]);
    const uploads = telegram.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ method: "sendVoice", chatId: String(OWNER) });
    expect(uploads[0]!.fileName).toMatch(/^tts-\d{8}T\d{6}Z-[0-9a-f]{6}\.ogg$/);
    expect(uploads[0]!.bytes.equals(FAKE_OGG_OPUS)).toBe(true);
    expect(fs.readFileSync(path.join(workspace(), "audio", uploads[0]!.fileName)).equals(FAKE_OGG_OPUS)).toBe(true);

    const result = toolResultAfter(fakes.model.requests);
    expect(result.text).toMatch(
      /^Spoke 22 characters with openai\/gpt-4o-mini-tts \(voice alloy\): audio\/tts-.*\.ogg \(audio\/ogg, \d+ B\)\. Sent to this telegram chat as a voice note/,
    );
    expect(JSON.stringify(chatRequests(fakes.model.requests).map((r) => r.body))).not.toContain(SPEECH_KEY);
  });

  it("a provider failure reaches the model as a clear tool error without the key; nothing is sent", async () => {
    speech.failWith = 500;
    callTts(fakes.model, "speak during an outage", { text: "hi" });
    const uploadsBefore = telegram.uploads.length;
    await dmAndWait("speak during an outage");
    const result = toolResultAfter(fakes.model.requests);
    expect(result).toEqual({
      error: "TTS_PROVIDER_FAILED",
      message: "No audio was made: openai/gpt-4o-mini-tts: HTTP 500 (the provider's server failed): upstream failure for key Bearer [redacted].",
      suggestion: expect.stringContaining("try again later"),
    });
    expect(JSON.stringify(chatRequests(fakes.model.requests).map((r) => r.body))).not.toContain(SPEECH_KEY);
    expect(telegram.uploads.length).toBe(uploadsBefore);
  });

  it("a refused key is TTS_PROVIDER_AUTH, and a provider slower than the call's timeoutMs is TTS_TIMEOUT", async () => {
    speech.failWith = 401;
    callTts(fakes.model, "speak with a bad key", { text: "hi" });
    await dmAndWait("speak with a bad key");
    expect(toolResultAfter(fakes.model.requests)).toMatchObject({
      error: "TTS_PROVIDER_AUTH",
      message: "No audio was made: openai/gpt-4o-mini-tts: HTTP 401: the provider refused the API key.",
    });

    speech.reset();
    fakes.model.reset();
    speech.hang = true;
    callTts(fakes.model, "speak too slowly", { text: "hi", timeoutMs: 300 });
    await dmAndWait("speak too slowly");
    expect(toolResultAfter(fakes.model.requests)).toMatchObject({
      error: "TTS_TIMEOUT",
      message: "No audio was made: openai/gpt-4o-mini-tts: no audio within 300 ms (timeoutMs).",
    });
  });

  it("/tts audio hi from the DM posts a voice note without a model call; /tts status names the provider; /tts on is refused as unsupported", async () => {
    const uploadsBefore = telegram.uploads.length;
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "/tts audio hi", messageId: messageId++ });
    await telegram.waitFor(() => telegram.uploads.length > uploadsBefore, 15_000);
    const upload = telegram.uploads.at(-1)!;
    expect(upload).toMatchObject({ method: "sendVoice", chatId: String(OWNER) });
    expect(upload.bytes.equals(FAKE_OGG_OPUS)).toBe(true);
    expect(fs.readFileSync(path.join(fakes.stateDir, "media", "tts", upload.fileName)).equals(FAKE_OGG_OPUS)).toBe(true);
    expect(speech.requests.map((r) => r.body)).toEqual([{ model: "gpt-4o-mini-tts", voice: "alloy", input: "hi", response_format: "opus" }]);
    expect(chatRequests(fakes.model.requests)).toHaveLength(0);

    const say = async (text: string) => {
      const before = telegram.messages(OWNER).length;
      telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text, messageId: messageId++ });
      await telegram.waitFor(() => telegram.messages(OWNER).length > before, 15_000);
      return String(telegram.messages(OWNER).at(-1)!.text);
    };
    expect(await say("/tts status")).toContain("TTS: ready — openai/gpt-4o-mini-tts, voice alloy");
    expect(await say("/tts latest")).toContain("/tts latest is not supported by this gateway");
    speech.failWith = 500;
    expect(await say("/tts audio once more")).toContain("No audio was made: openai/gpt-4o-mini-tts: HTTP 500");
    expect(telegram.uploads.length).toBe(uploadsBefore + 1);
  });

  it("from the WebSocket API the audio is MP3, saved, and not sent anywhere", async () => {
    callTts(fakes.model, "read this out", { text: "Saved only" });
    const uploadsBefore = telegram.uploads.length;
    await askAndWait(fakes.sock, "tts-ws", "read this out", 15_000);
    expect(speech.requests[0]!.body.response_format).toBe("mp3");
    const result = toolResultAfter(fakes.model.requests);
    expect(result.text).toContain("This conversation is not on a chat channel, so nothing was sent");
    const saved = /(audio\/tts-\S+\.mp3)/.exec(result.text)![1]!;
    expect(fs.readFileSync(path.join(workspace(), saved)).equals(FAKE_MP3)).toBe(true);
    expect(telegram.uploads.length).toBe(uploadsBefore);
  });
});

describe("the tts.* methods over the WebSocket protocol", () => {
  const fakes = useFakeModelGateway({
    operator: true,
    env: { OPENAI_API_KEY: "" },
    extra: () => ({ tts: { providers: { openai: { apiKey: SPEECH_KEY, baseUrl: `${speech.url}/v1` } } } }),
  });

  it("tts.convert speaks through the provider and answers OpenClaw's shape with the file under the state dir's media", async () => {
    const res = await fakes.sock.request("tts.convert", { text: "Convert me", channel: "telegram" });
    expect(res.ok).toBe(true);
    expect(res.payload).toEqual({ audioPath: expect.any(String), provider: "openai", outputFormat: "opus", voiceCompatible: true });
    expect(path.dirname(res.payload.audioPath)).toBe(path.join(fakes.stateDir, "media", "tts"));
    expect(fs.readFileSync(res.payload.audioPath).equals(FAKE_OGG_OPUS)).toBe(true);
    expect(fs.statSync(res.payload.audioPath).mode & 0o777).toBe(0o600);
    expect(speech.requests[0]!.body).toEqual({ model: "gpt-4o-mini-tts", voice: "coral", input: "Convert me", response_format: "opus" });

    const mp3 = await fakes.sock.request("tts.convert", { text: "As a file", modelId: "tts-1", voiceId: "echo" });
    expect(mp3.payload).toMatchObject({ outputFormat: "mp3", voiceCompatible: false });
    expect(fs.readFileSync(mp3.payload.audioPath).equals(FAKE_MP3)).toBe(true);
    expect(speech.requests[1]!.body).toMatchObject({ model: "tts-1", voice: "echo", response_format: "mp3" });
  });

  it("tts.convert refuses empty text and another provider, and a provider failure is UNAVAILABLE without the key", async () => {
    expect((await fakes.sock.request("tts.convert", { text: "  " })).error).toMatchObject({ code: "INVALID_REQUEST", message: "tts.convert requires text" });
    expect((await fakes.sock.request("tts.convert", { text: "hi", provider: "elevenlabs" })).error).toMatchObject({ code: "INVALID_REQUEST" });
    speech.failWith = 500;
    const failed = await fakes.sock.request("tts.convert", { text: "hi" });
    expect(failed.error).toMatchObject({ code: "UNAVAILABLE", message: expect.stringContaining("TTS conversion failed: openai/gpt-4o-mini-tts: HTTP 500") });
    expect(JSON.stringify(failed)).not.toContain(SPEECH_KEY);
  });

  it("tts.status and tts.providers are reads; tts.convert needs operator.write", async () => {
    const reader = (await openOperator(fakes.gw.url, fakes.gw.token, { scopes: ["operator.read"] })).sock;
    try {
      expect((await reader.request("tts.status", {})).payload).toMatchObject({
        enabled: false,
        auto: "off",
        provider: "openai",
        configured: true,
        model: "gpt-4o-mini-tts",
        voice: "coral",
        providerStates: [{ id: "openai", label: "OpenAI", configured: true }],
      });
      const providers = (await reader.request("tts.providers", {})).payload;
      expect(providers.active).toBe("openai");
      expect(providers.providers[0]).toMatchObject({ id: "openai", configured: true, voices: expect.arrayContaining(["coral", "alloy"]) });
      const refused = await reader.request("tts.convert", { text: "hi" });
      expect(refused.error).toMatchObject({ code: "FORBIDDEN", details: { missingScope: "operator.write" } });
      expect(speech.requests).toHaveLength(0);
    } finally {
      reader.close();
    }
  });
});

describe("without a tts block", () => {
  const fakes = useFakeModelGateway({ operator: true, env: { OPENAI_API_KEY: "sk-not-for-speech" } });

  it("the tool is not offered, even with an OpenAI key", async () => {
    fakes.model.setResponder(() => ({ text: "plain" }));
    await askAndWait(fakes.sock, "no-tts", "hello", 15_000);
    const first = chatRequests(fakes.model.requests)[0]!;
    expect(lastUserTextOf(first)).toContain("hello");
    expect(toolNamesOf(first)).not.toContain("tts");
  });

  it("tts.status says why nothing speaks, and tts.convert is unavailable", async () => {
    expect((await fakes.sock.request("tts.status", {})).payload).toMatchObject({ configured: false, problem: expect.stringContaining("text-to-speech is not set up") });
    expect((await fakes.sock.request("tts.convert", { text: "hi" })).error).toMatchObject({ code: "UNAVAILABLE", message: expect.stringContaining("TTS is not available") });
  });
});

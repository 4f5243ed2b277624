import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../fakes/model-server.js";
import { FAKE_OGG_OPUS, type FakeSpeechServer, startFakeSpeechServer } from "../fakes/speech-server.js";
import { type FakeTelegram, startFakeTelegram } from "../fakes/telegram-server.js";
import { type FakeTranscriptionServer, startFakeTranscriptionServer } from "../fakes/transcription-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { type GatewayProcess, makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * Auto-TTS in a real gateway process: replies to a Telegram DM go out as text through the delivery
 * ledger and, when the mode in effect says so, follow as a voice note (sendVoice, Ogg/Opus from a
 * fake OpenAI speech server). The config starts at `tts.auto: "inbound"`; `tts.enable` turns the
 * gateway to always, `/tts off` turns one chat off (kept across a SIGKILL restart), `tts.disable`
 * turns the gateway off. Whether a reply was to be spoken is read from the ledger, where its
 * spoken copy is recorded before the reply's text is sent: no waiting for something not to happen.
 */
const SPEECH_KEY = "sk-speech-autotts-5e1f0c";
const OWNER = 4242;
const FRIEND = 5353;
const SPOKEN_REPLY = "The forecast says sunny skies with a light breeze this afternoon.";
const CODE_REPLY = "Here:\n```sh\nnpm run build && npm test -- --run test/e2e/auto-tts.test.ts\n```";
const MEDIA_REPLY = "I sent you the forecast as audio just now.";

let speech: FakeSpeechServer;
let telegram: FakeTelegram;
let transcriber: FakeTranscriptionServer;
let model: FakeModelServer;
let stateDir: string;
let config: string;
let gw: GatewayProcess;
let sock: TestSocket;
let messageId = 1;

/** The model's answer by what the user said: short, code, a tts tool call (media), else a reply worth hearing. */
function answer(model: FakeModelServer): void {
  model.setResponder((req) => {
    const last = lastMessageOf(req);
    if (last.role === "tool") return { text: MEDIA_REPLY };
    if (last.text.includes("short please")) return { text: "Ok, done." };
    if (last.text.includes("show the command")) return { text: CODE_REPLY };
    if (last.text.includes("say the forecast")) return { toolCalls: [{ name: "tts", arguments: { text: "Sunny with a light breeze." } }] };
    return { text: SPOKEN_REPLY };
  });
}

async function start(): Promise<void> {
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config }, env: { OPENAI_API_KEY: "" } });
  await gw.waitForOutput(/channel account started/, 15_000);
  sock = (await openOperator(gw.url, gw.token)).sock;
}

beforeAll(async () => {
  speech = await startFakeSpeechServer();
  telegram = await startFakeTelegram({ botUsername: "speech_bot" });
  transcriber = await startFakeTranscriptionServer();
  transcriber.transcript = () => "what is the weather like";
  model = await startFakeModelServer();
  answer(model);
  stateDir = makeTempDir();
  const base = JSON.parse(
    fakeModelConfig(model, stateDir, {
      channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER), String(FRIEND)] }) },
      // Each DM its own session, so one chat's /tts choice is not the other's.
      session: { dmScope: "per-channel-peer" },
      tts: { auto: "inbound", mode: "final", timeoutMs: 10_000, providers: { openai: { apiKey: SPEECH_KEY, baseUrl: `${speech.url}/v1`, speakerVoice: "alloy" } } },
    }),
  );
  base.models.providers.openai = { apiKey: "sk-transcribe" };
  base.tools = { media: { models: [{ provider: "openai", model: "gpt-4o-mini-transcribe", baseUrl: `${transcriber.url}/v1`, capabilities: ["audio"] }] } };
  config = JSON.stringify(base);
  await start();
}, 60_000);

afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await Promise.all([speech?.close(), telegram?.close(), transcriber?.close(), model?.close()]);
});

/** Spoken copies the ledger recorded so far (`<runId>#speech` entries): one per reply Auto-TTS speaks. */
function spokenEntries(): number {
  const file = path.join(stateDir, "channels", "delivery-ledger.jsonl");
  if (!fs.existsSync(file)) return 0;
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.includes('"op":"expect"') && line.includes('"speech":true')).length;
}

/** Messages to `chat` holding `text` (a reply with code arrives as Telegram HTML around it). */
const textsTo = (chat: number, text: string) => telegram.messages(chat).filter((m) => String(m.text).includes(text)).length;

/** Sends `text` (or a voice note) from `chat` and waits until the reply `expected` reached the chat; says whether the reply was to be spoken. */
async function dm(chat: number, text: string, expected: string, voice?: string): Promise<{ spoken: boolean }> {
  const entriesBefore = spokenEntries();
  const before = textsTo(chat, expected);
  telegram.pushMessage({ chatId: chat, fromId: chat, fromName: "User", text, messageId: messageId++, ...(voice ? { voice } : {}) });
  await telegram.waitFor(() => textsTo(chat, expected) > before, 20_000);
  return { spoken: spokenEntries() > entriesBefore };
}

/** A chat command from `chat`, answered in text: the answer. */
async function command(chat: number, text: string): Promise<string> {
  const before = telegram.messages(chat).length;
  telegram.pushMessage({ chatId: chat, fromId: chat, fromName: "User", text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(chat).length > before, 15_000);
  return String(telegram.messages(chat).at(-1)!.text);
}

/** Waits for the voice note Auto-TTS posts to `chat` after `uploadsBefore`, and returns it. */
async function voiceNote(chat: number, uploadsBefore: number) {
  await telegram.waitFor(() => telegram.uploads.slice(uploadsBefore).some((u) => u.chatId === String(chat)), 15_000);
  return telegram.uploads.slice(uploadsBefore).find((u) => u.chatId === String(chat))!;
}

describe("Auto-TTS through a Telegram DM", { timeout: 90_000 }, () => {
  it("inbound: a text message's reply stays text; a voice note's reply also comes as a voice note", async () => {
    expect(await dm(OWNER, "hello there", SPOKEN_REPLY)).toEqual({ spoken: false });
    expect(speech.requests).toHaveLength(0);

    const uploadsBefore = telegram.uploads.length;
    const voice = telegram.addFile(Buffer.concat([Buffer.from("OggS"), Buffer.alloc(2000, 1)]), "voice/file_1.oga");
    expect(await dm(OWNER, "", SPOKEN_REPLY, voice)).toEqual({ spoken: true });
    const note = await voiceNote(OWNER, uploadsBefore);
    expect(note).toMatchObject({ method: "sendVoice", chatId: String(OWNER) });
    expect(note.bytes.equals(FAKE_OGG_OPUS)).toBe(true);
    expect(speech.requests.map((r) => r.body)).toEqual([{ model: "gpt-4o-mini-tts", voice: "alloy", input: SPOKEN_REPLY, response_format: "opus" }]);
    expect(fs.existsSync(path.join(stateDir, "media", "tts", note.fileName))).toBe(true);
  });

  it("tts.enable (operator.write) turns the gateway to always, kept under the state dir; tts.status reports it", async () => {
    const reader = (await openOperator(gw.url, gw.token, { scopes: ["operator.read"] })).sock;
    try {
      expect((await reader.request("tts.status", {})).payload).toMatchObject({ enabled: true, auto: "inbound", autoSource: "config" });
      expect((await reader.request("tts.enable", {})).error).toMatchObject({ code: "FORBIDDEN", details: { missingScope: "operator.write" } });
    } finally {
      reader.close();
    }
    expect((await sock.request("tts.enable", {})).payload).toEqual({ enabled: true });
    const status = (await sock.request("tts.status", {})).payload;
    expect(status).toMatchObject({ enabled: true, auto: "always", autoSource: "gateway", prefsPath: path.join(stateDir, "settings", "tts.json") });
    expect(JSON.parse(fs.readFileSync(status.prefsPath, "utf8"))).toEqual({ tts: { auto: "always" } });
  });

  it("always: a text message's reply arrives as text and as a voice note", async () => {
    speech.reset();
    const uploadsBefore = telegram.uploads.length;
    expect(await dm(OWNER, "how is the weather", SPOKEN_REPLY)).toEqual({ spoken: true });
    expect((await voiceNote(OWNER, uploadsBefore)).method).toBe("sendVoice");
    expect(speech.requests.map((r) => r.body.input)).toEqual([SPOKEN_REPLY]);
  });

  it("a short reply, a reply that is mostly code and a reply whose turn posted media stay text", async () => {
    expect(await dm(OWNER, "short please", "Ok, done.")).toEqual({ spoken: false });
    expect(await dm(OWNER, "show the command", "npm run build &amp;&amp; npm test")).toEqual({ spoken: false });
    const uploadsBefore = telegram.uploads.length;
    // The model's tts tool call posts one voice note; the reply after it is not spoken as well.
    expect(await dm(OWNER, "say the forecast", MEDIA_REPLY)).toEqual({ spoken: false });
    expect(telegram.uploads.slice(uploadsBefore).filter((u) => u.chatId === String(OWNER))).toHaveLength(1);
  });

  it("a speech provider failing (500): the text arrives once, the failure is logged with its reason and without the key", async () => {
    speech.reset();
    speech.failWith = 500;
    const uploadsBefore = telegram.uploads.length;
    const before = textsTo(OWNER, SPOKEN_REPLY);
    expect(await dm(OWNER, "and tomorrow", SPOKEN_REPLY)).toEqual({ spoken: true });
    await gw.waitForOutput(/reply not spoken \(tts\.auto\): no audio was made/, 15_000);
    const logged = gw
      .output()
      .split("\n")
      .find((line) => line.includes("reply not spoken (tts.auto): no audio was made"))!;
    expect(logged).toContain("openai/gpt-4o-mini-tts: HTTP 500");
    expect(gw.output()).not.toContain(SPEECH_KEY);
    expect(textsTo(OWNER, SPOKEN_REPLY)).toBe(before + 1);
    expect(telegram.uploads.length).toBe(uploadsBefore);
    speech.reset();
  });

  it("/tts off turns one chat off, kept across a killed gateway; /tts default follows the gateway again; tts.disable turns the rest off", async () => {
    expect(await command(OWNER, "/tts off")).toContain("Auto-TTS for this chat: off");
    expect(await dm(OWNER, "weather again", SPOKEN_REPLY)).toEqual({ spoken: false });
    expect(await dm(FRIEND, "weather for me", SPOKEN_REPLY)).toEqual({ spoken: true });
    expect(await command(OWNER, "/tts status")).toContain("Auto-TTS: off (replies stay text; set by this chat (/tts))");
    const rows = (await sock.request("sessions.list", {})).payload.sessions as { key: string; ttsAuto?: string }[];
    expect(rows.filter((row) => row.ttsAuto).map((row) => [row.key, row.ttsAuto])).toEqual([[expect.stringContaining(String(OWNER)), "off"]]);

    sock.close();
    await gw.stop("SIGKILL");
    await start();
    expect(await dm(OWNER, "weather after restart", SPOKEN_REPLY)).toEqual({ spoken: false });
    expect(await dm(FRIEND, "weather after restart", SPOKEN_REPLY)).toEqual({ spoken: true });
    expect(await command(OWNER, "/tts default")).toContain("Auto-TTS for this chat: back to the gateway's (always");
    expect(await dm(OWNER, "weather once more", SPOKEN_REPLY)).toEqual({ spoken: true });

    expect((await sock.request("tts.disable", {})).payload).toEqual({ enabled: false });
    expect((await sock.request("tts.status", {})).payload).toMatchObject({ enabled: false, auto: "off", autoSource: "gateway" });
    expect(await dm(FRIEND, "and now", SPOKEN_REPLY)).toEqual({ spoken: false });
  });
});

import fs from "node:fs";
import path from "node:path";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { waitFor } from "../fakes/discord-server.js";
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from "../fakes/transcription-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useTelegramGateway } from "../helpers/telegram-gateway.js";

/**
 * Voice notes through the real grammY client and a fake Bot API: the saved recording is
 * transcribed (`tools.media.models`: OpenAI's /audio/transcriptions on a fake server, then a local
 * command as the fallback) and the model reads OpenClaw's `[Audio]` block; the transcript is
 * echoed to the chat when `echoTranscript` is on.
 */
const OWNER = 4242;
const GROUP = -100_777;
const QUIET_GROUP = -100_778;
const TRANSCRIBE_KEY = "sk-transcribe-secret";
let transcriber: FakeTranscriptionServer;
let messageId = 1;

// Runs before the gateway's hooks (registered below): the config needs the server's URL.
beforeAll(async () => {
  transcriber = await startFakeTranscriptionServer();
});
afterAll(async () => {
  await transcriber?.close();
});

/** A local transcriber, as whisper would be: prints what it "heard" from the file it is given. */
function cliTranscriber(): string {
  const script = path.join(makeTempDir(), "fake-whisper.mjs");
  fs.writeFileSync(script, 'import fs from "node:fs";\nprocess.stdout.write(`heard ${fs.statSync(process.argv[2]).size} bytes locally\\n`);\n');
  return script;
}

const fixture = useTelegramGateway({
  config: ({ model, telegram, stateDir }) => {
    const groups = { [String(GROUP)]: { requireMention: true }, [String(QUIET_GROUP)]: { requireMention: true, disableAudioPreflight: true } };
    const telegramConfig = telegramChannelConfig(telegram, { allowFrom: [String(OWNER)], groupAllowFrom: [String(OWNER)], groups });
    const config = JSON.parse(fakeModelConfig(model, stateDir, { channels: { telegram: telegramConfig }, messages: { groupChat: { mentionPatterns: ["\\bclaw\\b"] } } }));
    config.models.providers.openai = { apiKey: TRANSCRIBE_KEY };
    config.tools = {
      media: {
        models: [
          { provider: "openai", model: "gpt-4o-mini-transcribe", baseUrl: `${transcriber.url}/v1`, capabilities: ["audio"], language: "en" },
          { type: "cli", command: process.execPath, args: [cliTranscriber(), "{{AttachmentPath}}"], capabilities: ["audio"] },
          { provider: "openai", model: "gpt-4o-mini", capabilities: ["video"] },
        ],
        audio: { echoTranscript: true },
      },
    };
    return config;
  },
});

async function modelTextFor(push: () => void): Promise<string> {
  const before = chatRequests(fixture.model).length;
  push();
  await waitFor(() => chatRequests(fixture.model).length > before, 15_000, "the model request");
  return lastUserText(chatRequests(fixture.model).at(-1)!);
}

const sentTexts = () => fixture.telegram.sent.filter((c) => c.method === "sendMessage").map((c) => String(c.body.text));

describe("voice notes are transcribed", { timeout: 60_000 }, () => {
  it("sends the recording to the transcription model, echoes the transcript, and gives the model the [Audio] block", async () => {
    transcriber.transcript = () => "remind me to call mum at six";
    const recording = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(2000, 1)]);
    const voice = fixture.telegram.addFile(recording, "voice/file_10.oga");
    const text = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "", voice, messageId: messageId++ }));

    expect(text).toMatch(/^\[Audio\]\nTranscript:\nremind me to call mum at six\n\[media attached: \S+\.ogg \(audio, audio\/ogg, 2\.0 KB\)\]$/);
    const asked = transcriber.requests.at(-1)!;
    expect(asked).toMatchObject({ authorization: `Bearer ${TRANSCRIBE_KEY}`, model: "gpt-4o-mini-transcribe", language: "en", responseFormat: "json" });
    expect(asked.bytes?.equals(recording)).toBe(true);
    await waitFor(() => sentTexts().includes('📝 "remind me to call mum at six"'), 10_000, "the transcript echo");
    expect(JSON.stringify(chatRequests(fixture.model).map((r) => r.body))).not.toContain(TRANSCRIBE_KEY);
  });

  it("keeps the caption as User text", async () => {
    transcriber.transcript = () => "the shopping list is milk and eggs";
    const voice = fixture.telegram.addFile(Buffer.alloc(3000, 2), "voice/file_11.oga");
    const text = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "for later", voice, messageId: messageId++ }));
    expect(text.split("\n").slice(0, 5)).toEqual(["[Audio]", "User text:", "for later", "Transcript:", "the shopping list is milk and eggs"]);
  });

  it("falls back to the next entry, a local command, when the provider fails", async () => {
    transcriber.failWith = 500;
    try {
      const before = transcriber.requests.length;
      const voice = fixture.telegram.addFile(Buffer.alloc(1500, 3), "voice/file_12.oga");
      const text = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "", voice, messageId: messageId++ }));
      expect(transcriber.requests.length).toBe(before + 1);
      expect(text.startsWith("[Audio]\nTranscript:\nheard 1500 bytes locally\n[media attached: ")).toBe(true);
    } finally {
      transcriber.failWith = undefined;
    }
  });

  it("leaves a recording too short to hold speech untranscribed", async () => {
    const before = transcriber.requests.length;
    const voice = fixture.telegram.addFile(Buffer.from("OggS tiny"), "voice/file_13.oga");
    const text = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "", voice, messageId: messageId++ }));
    expect(text).toMatch(/^<media:voice>\n\[media attached: \S+\.ogg \(audio, audio\/ogg, 9 B\)\]$/);
    expect(transcriber.requests.length).toBe(before);
  });

  it("in a group that needs a mention, a captionless voice note is transcribed first and 'claw' in it is a mention (one transcription)", async () => {
    transcriber.transcript = () => "hey claw, what is on today?";
    const before = transcriber.requests.length;
    const voice = fixture.telegram.addFile(Buffer.alloc(2500, 4), "voice/file_14.oga");
    const text = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, text: "", voice, messageId: messageId++ }));
    expect(text).toContain("[Audio]\nTranscript:\nhey claw, what is on today?\n[media attached: ");
    expect(transcriber.requests.length).toBe(before + 1);
  });

  it("a group voice note whose transcript names nobody is not answered; disableAudioPreflight leaves it untranscribed", async () => {
    transcriber.transcript = () => "just thinking out loud";
    const before = transcriber.requests.length;
    const requestsBefore = chatRequests(fixture.model).length;
    fixture.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, text: "", voice: fixture.telegram.addFile(Buffer.alloc(2500, 5), "voice/file_15.oga"), messageId: messageId++ });
    const sentinel = await modelTextFor(() => fixture.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, text: "claw sentinel", messageId: messageId++ }));
    expect(sentinel).toContain("claw sentinel");
    expect(chatRequests(fixture.model).length).toBe(requestsBefore + 1);
    expect(transcriber.requests.length).toBe(before + 1);

    transcriber.transcript = () => "hey claw, can you hear me?";
    fixture.telegram.pushMessage({
      chatId: QUIET_GROUP,
      fromId: OWNER,
      text: "",
      voice: fixture.telegram.addFile(Buffer.alloc(2500, 6), "voice/file_16.oga"),
      messageId: messageId++,
    });
    await modelTextFor(() => fixture.telegram.pushMessage({ chatId: QUIET_GROUP, fromId: OWNER, text: "claw sentinel", messageId: messageId++ }));
    expect(chatRequests(fixture.model).length).toBe(requestsBefore + 2);
    expect(transcriber.requests.length).toBe(before + 1);
  });

  it("says at start-up that a video entry is not used", () => {
    expect(fixture.gw.output()).toContain("tools.media.models[2] is not used");
  });
});

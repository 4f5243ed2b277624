import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SpeechHost } from "../../../src/agents/speech/index.js";
import { argumentProblem } from "../../../src/agents/tool-arguments.js";
import { createTtsTool } from "../../../src/agents/tools/tts.js";
import type { ChannelMessageRequest, ChannelMessenger } from "../../../src/agents/types.js";
import { FAKE_OGG_OPUS, type FakeSpeechServer, startFakeSpeechServer } from "../../fakes/speech-server.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";

const tool = createTtsTool();
let server: FakeSpeechServer;
let host: SpeechHost;

beforeAll(async () => {
  server = await startFakeSpeechServer();
  host = { provider: "openai", model: "gpt-4o-mini-tts", voice: "coral", baseUrl: `${server.url}/v1`, apiKey: "sk-unit-tts-55aa", timeoutMs: 10_000, maxTextLength: 20 };
});
afterAll(() => server.close());
afterEach(() => server.reset());

/** A messenger that records what it was asked to post. */
function recordingMessenger(): ChannelMessenger & { sent: ChannelMessageRequest[] } {
  const sent: ChannelMessageRequest[] = [];
  return {
    sent,
    async send(request) {
      sent.push(request);
      return { channel: "telegram", accountId: "default", chatId: "42", messageIds: ["7"] };
    },
    async act() {
      throw new Error("not used");
    },
  };
}

describe("the tts tool's arguments", () => {
  it("needs text, and a timeoutMs of 1-600000 ms", () => {
    expect(argumentProblem(tool, {}, "args")).toBeDefined();
    expect(argumentProblem(tool, { text: "" }, "args")).toBeDefined();
    expect(argumentProblem(tool, { text: "hi", timeoutMs: 0 }, "args")).toBeDefined();
    expect(argumentProblem(tool, { text: "hi", timeoutMs: 600_001 }, "args")).toBeDefined();
    expect(argumentProblem(tool, { text: "hi", channel: "telegram", timeoutMs: 600_000 }, "args")).toBeUndefined();
  });

  it("refuses text past tts.maxTextLength, or only blanks, without calling the provider", async () => {
    const { workspace } = makeWorkspace();
    expect(errorOf(await tool.execute({ text: "x".repeat(21) }, makeContext(workspace, { speech: host }), neverAborted))).toMatchObject({
      error: "INVALID_ARGUMENT",
      message: "text: the text is 21 characters; at most 20 are spoken (tts.maxTextLength).",
    });
    expect(errorOf(await tool.execute({ text: "   " }, makeContext(workspace, { speech: host }), neverAborted)).message).toBe("text: there is no text to speak.");
    expect(server.requests).toHaveLength(0);
  });

  it("says so when no speech provider is set up", async () => {
    const { workspace } = makeWorkspace();
    expect(errorOf(await tool.execute({ text: "hi" }, makeContext(workspace), neverAborted)).error).toBe("TTS_UNAVAILABLE");
  });
});

describe("the tts tool's audio", () => {
  it("is saved under audio/ and posted to the turn's chat as a voice note; the call's channel picks the format", async () => {
    const { workspace } = makeWorkspace();
    const messenger = recordingMessenger();
    const result = await tool.execute({ text: "hello" }, { ...makeContext(workspace, { speech: host, channelMessenger: messenger }), channel: "telegram" }, neverAborted);
    expect(server.requests[0]!.body.response_format).toBe("opus");
    const details = result.details as { path: string; delivered: boolean };
    expect(details).toMatchObject({ delivered: true, outputFormat: "opus", voiceCompatible: true });
    expect(fs.readFileSync(path.join(workspace, details.path)).equals(FAKE_OGG_OPUS)).toBe(true);
    expect(messenger.sent).toEqual([
      { message: "", sessionKey: "agent:main:main", file: { path: path.join(workspace, details.path), fileName: path.basename(details.path), voice: true } },
    ]);
    expect(textOf(result)).toContain("Sent to this telegram chat as a voice note");

    await tool.execute({ text: "hello", channel: "discord" }, { ...makeContext(workspace, { speech: host, channelMessenger: messenger }), channel: "telegram" }, neverAborted);
    expect(server.requests[1]!.body.response_format).toBe("mp3");
    expect(messenger.sent[1]!.file).not.toHaveProperty("voice");
  });

  it("a post that fails keeps the file and tells the model to answer in text", async () => {
    const { workspace } = makeWorkspace();
    const failing: ChannelMessenger = {
      send: async () => {
        throw new Error("channel telegram account default is not running");
      },
      act: async () => {
        throw new Error("not used");
      },
    };
    const result = await tool.execute({ text: "hello" }, { ...makeContext(workspace, { speech: host, channelMessenger: failing }), channel: "telegram" }, neverAborted);
    expect(textOf(result)).toContain("It could not be sent to the chat (channel telegram account default is not running): answer in text instead.");
    expect(fs.readdirSync(path.join(workspace, "audio"))).toHaveLength(1);
  });
});

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  audioBody,
  describeImage,
  imageBody,
  imageDescriptionPlan,
  transcribeAudio,
  transcriptionPlan,
  type DescriptionAttempt,
  type TranscriptionAttempt,
} from "../../../src/agents/media/index.js";
import { validateConfig } from "../../../src/config/validate.js";
import { makeTempDir } from "../tools/helpers.js";
import { withEnv } from "../../helpers/with-env.js";

const plan = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => transcriptionPlan(validateConfig(raw, env).config, env);
const labels = (attempts: TranscriptionAttempt[]) => attempts.map((a) => `${a.kind} ${a.label}`);

function savedFile(bytes: number): { path: string; mimeType: string; bytes: number } {
  const file = path.join(makeTempDir(), "note.ogg");
  fs.writeFileSync(file, Buffer.alloc(bytes, 1));
  return { path: file, mimeType: "audio/ogg", bytes };
}

describe("the transcription plan", () => {
  it("without audio entries finds Groq, then OpenAI, by their keys; nothing without one", () => {
    expect(labels(plan({}, { GROQ_API_KEY: "g", OPENAI_API_KEY: "o" }).attempts)).toEqual(["provider groq/whisper-large-v3-turbo"]);
    expect(labels(plan({}, { OPENAI_API_KEY: "o" }).attempts)).toEqual(["provider openai/gpt-4o-transcribe"]);
    expect(plan({}, {}).attempts).toEqual([]);
    expect(plan({ tools: { media: { audio: { enabled: false } } } }, { OPENAI_API_KEY: "o" }).attempts).toEqual([]);
  });

  it("keeps the listed audio entries in order, each with its own limits over the audio defaults", () => {
    const { attempts, echoFormat } = plan(
      {
        models: { providers: { whisper: { baseUrl: "http://127.0.0.1:9000/v1", api: "openai-completions" } } },
        tools: {
          media: {
            models: [
              { provider: "whisper", model: "large-v3", capabilities: ["audio"], timeoutSeconds: 5 },
              { provider: "openai", capabilities: ["image"] },
              { type: "cli", command: "whisper", args: ["{{AttachmentPath}}"], capabilities: ["audio"], maxChars: 10 },
            ],
            audio: { language: "de", maxBytes: 5000, echoTranscript: true },
          },
        },
      },
      {},
    );
    expect(attempts).toEqual([
      { kind: "provider", provider: "whisper", model: "large-v3", baseUrl: "http://127.0.0.1:9000/v1", label: "whisper/large-v3", language: "de", maxBytes: 5000, timeoutMs: 5000 },
      { kind: "cli", command: "whisper", args: ["{{AttachmentPath}}"], label: "cli:whisper", language: "de", maxBytes: 5000, timeoutMs: 60_000, maxChars: 10 },
    ]);
    expect(echoFormat).toBe('📝 "{transcript}"');
  });

  it("an entry that cannot run stays in its place as a failure naming why", () => {
    const { attempts } = plan(
      {
        tools: {
          media: {
            models: [
              { provider: "deepgram", capabilities: ["audio"] },
              { provider: "openai", capabilities: ["audio"] },
            ],
          },
        },
      },
      {},
    );
    expect(attempts.map((a) => (a.kind === "unusable" ? a.reason : a.kind))).toEqual([
      expect.stringContaining('provider "deepgram" cannot transcribe here'),
      "no API key for openai (models.providers.openai.apiKey or OPENAI_API_KEY)",
    ]);
  });
});

describe("transcribing", () => {
  const cli = (script: string, extra: Partial<TranscriptionAttempt> = {}): TranscriptionAttempt => {
    const file = path.join(makeTempDir(), "t.mjs");
    fs.writeFileSync(file, script);
    return {
      kind: "cli",
      command: process.execPath,
      args: [file, "{{AttachmentPath}}", "{{Language}}"],
      label: "cli:node",
      maxBytes: 1_000_000,
      timeoutMs: 5_000,
      language: "fr",
      ...extra,
    } as TranscriptionAttempt;
  };

  it("fills in the file and the language, trims the transcript and cuts it at maxChars", async () => {
    const echo = cli('process.stdout.write(`  ${process.argv[2].endsWith(".ogg")} ${process.argv[3]} and more words  \\n`)', { maxChars: 12 });
    expect(await transcribeAudio(savedFile(2000), [echo])).toEqual({ kind: "transcribed", text: "true fr and ", via: "cli:node" });
  });

  it("skips what the file is too large for and goes past a failing command, saying why for each", async () => {
    const failing = cli('process.stderr.write("model file missing\\n"); process.exit(3)');
    const small = cli("", { label: "cli:small", maxBytes: 100 });
    expect(await transcribeAudio(savedFile(2000), [small, failing, { kind: "unusable", label: "x/y", reason: "no key" }])).toEqual({
      kind: "failed",
      failures: ["cli:small: the file is 2000 bytes, over its maxBytes (100)", `cli:node: ${process.execPath} exited with 3: model file missing`, "x/y: no key"],
    });
  });

  it("gives up on a command that outlasts its timeout", async () => {
    const slow = cli("setTimeout(() => {}, 60_000)", { timeoutMs: 1000 });
    const outcome = await transcribeAudio(savedFile(2000), [slow]);
    expect(outcome).toEqual({ kind: "failed", failures: ["cli:node: no transcript within 1 s (timeoutSeconds)"] });
  });

  it("does not send a recording under 1 KB anywhere", async () => {
    expect(await transcribeAudio(savedFile(500), [cli("process.exit(9)")])).toEqual({ kind: "too-short" });
  });
});

describe("the [Audio] block", () => {
  it("puts the caption first, and takes a channel's media placeholder for no caption", () => {
    expect(audioBody("call her back", "hi there")).toBe("[Audio]\nUser text:\ncall her back\nTranscript:\nhi there");
    expect(audioBody("<media:voice>", "hi there")).toBe("[Audio]\nTranscript:\nhi there");
  });
});

describe("the image description plan", () => {
  const imagePlan = (raw: Record<string, unknown>) => imageDescriptionPlan(validateConfig(raw, {}).config);

  it("takes the image entries (an openai or anthropic entry without capabilities is one), else agents.defaults.imageModel and its fallbacks", () => {
    const listed = imagePlan({
      tools: {
        media: {
          models: [{ provider: "openai", model: "gpt-4o-mini" }, { provider: "groq" }, { type: "cli", command: "describe", args: ["{{AttachmentPath}}"], capabilities: ["image"] }],
          image: { maxChars: 200 },
        },
      },
      agents: { defaults: { imageModel: "anthropic/claude-haiku-4-5" } },
    });
    expect(listed.map((a) => `${a.kind} ${a.label}`)).toEqual(["model openai/gpt-4o-mini", "cli cli:describe"]);
    expect(listed[0]).toMatchObject({ prompt: "Describe the image.", maxChars: 200, maxBytes: 10 * 1024 * 1024, timeoutMs: 60_000 });
    expect(imagePlan({ agents: { defaults: { imageModel: { primary: "openai/gpt-4o", fallbacks: ["anthropic/claude-haiku-4-5"] } } } }).map((a) => a.label)).toEqual([
      "openai/gpt-4o",
      "anthropic/claude-haiku-4-5",
    ]);
    expect(imagePlan({ tools: { media: { image: { enabled: false } } }, agents: { defaults: { imageModel: "openai/gpt-4o" } } })).toEqual([]);
  });

  it("describes with a command after a model that cannot be reached, naming it", async () => {
    const config = validateConfig(
      { models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "text-only" }] } } } },
      {},
    ).config;
    const script = path.join(makeTempDir(), "d.mjs");
    fs.writeFileSync(script, "process.stdout.write(`a photo, asked: ${process.argv[2]}`)");
    const attempts: DescriptionAttempt[] = [
      { kind: "model", ref: "local/text-only", label: "local/text-only", prompt: "p", maxBytes: 1e6, maxChars: 500, timeoutMs: 5000 },
      { kind: "cli", command: process.execPath, args: [script, "{{Prompt}}"], label: "cli:node", prompt: "what is it?", maxBytes: 1e6, maxChars: 500, timeoutMs: 5000 },
    ];
    const outcome = await describeImage(savedFile(2000), attempts, { config, env: {} });
    expect(outcome).toEqual({ kind: "described", text: "a photo, asked: what is it?", via: "cli:node" });
    const unreachable = await describeImage(savedFile(2000), attempts.slice(0, 1), { config, env: {} });
    expect(unreachable).toEqual({ kind: "failed", failures: [expect.stringMatching(/^local\/text-only: /)] });
  });

  it("the [Image] block puts the caption first", () => {
    expect(imageBody("<media:photo>", "a cat")).toBe("[Image]\nDescription:\na cat");
    expect(imageBody("look", "a cat")).toBe("[Image]\nUser text:\nlook\nDescription:\na cat");
  });
});

describe("a media command's environment", () => {
  it("has the gateway's environment without its secrets", async () => {
    const script = path.join(makeTempDir(), "env.mjs");
    fs.writeFileSync(script, "process.stdout.write(`${process.env.OPENAI_API_KEY ?? 'no key'} ${process.env.MEDIA_TEST_PLAIN ?? 'no plain'}`)");
    await withEnv({ OPENAI_API_KEY: "sk-should-not-leak", MEDIA_TEST_PLAIN: "plain" }, async () => {
      const attempt = { kind: "cli", command: process.execPath, args: [script], label: "cli:node", maxBytes: 1e6, timeoutMs: 5000 } as TranscriptionAttempt;
      expect(await transcribeAudio(savedFile(2000), [attempt])).toMatchObject({ kind: "transcribed", text: "no key plain" });
    });
  });

  it("a provider that cannot be reached is named with the reason", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const unreachable = {
      kind: "provider",
      provider: "local",
      model: "m",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      label: "local/m",
      maxBytes: 1e6,
      timeoutMs: 5000,
    } as TranscriptionAttempt;
    expect(await transcribeAudio(savedFile(2000), [unreachable])).toEqual({ kind: "failed", failures: [`local/m: 127.0.0.1:${port} could not be reached (ECONNREFUSED)`] });
  });
});

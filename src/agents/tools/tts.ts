import fs from "node:fs";
import path from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { speechFileName, type SpeechHost, synthesizeSpeech, type SynthesizedSpeech } from "../speech/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolContext, ToolResult } from "../types.js";
import { formatBytes } from "./read.js";
import { fileSystemError } from "./fs-errors.js";
import { resolveWorkspacePath } from "./workspace-path.js";

/** Where the tool's audio goes, under the workspace. */
export const SPEECH_OUTPUT_DIR = "audio";
/** A call's own `timeoutMs` is capped here, as image_generate's is. */
export const TTS_MAX_TIMEOUT_MS = 600_000;

export const TtsParameters = Type.Object({
  text: Type.String({ minLength: 1, description: "The words to speak, as they should be heard." }),
  channel: Type.Optional(
    Type.String({ description: 'The channel the audio is for, which picks its format ("telegram": an Ogg/Opus voice note; others: MP3). Default: this conversation\'s channel.' }),
  ),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: TTS_MAX_TIMEOUT_MS, description: "How long to wait for the speech provider (default: the configured limit)." })),
});
export type TtsArgs = Static<typeof TtsParameters>;

/**
 * Speaks text through the configured speech provider (ctx.services.speech; the tool is offered only
 * when one can run), saves the audio under audio/ in the workspace, and posts it to the chat this
 * turn answers: a voice note on Telegram, an audio file elsewhere. A turn from no chat (the WebSocket
 * or HTTP API) gets the file's path only.
 */
export function createTtsTool(): AgentTool<typeof TtsParameters> {
  return {
    name: "tts",
    description:
      "Convert text to speech and send it to this chat as audio (a voice note on Telegram). Use it only when the user asks for audio or a voice reply. " +
      "The audio is saved under audio/ in the workspace; once it is sent, do not repeat its text in your answer.",
    parameters: TtsParameters,
    async execute(args, ctx, signal) {
      const host = ctx.services.speech;
      if (!host) return toolError(TOOL_ERRORS.ttsUnavailable("no speech provider is set up in this runtime"));
      const channel = args.channel?.trim() || ctx.channel;
      const result = await synthesizeSpeech(host, { text: args.text, ...(channel ? { channel } : {}), ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}) }, signal);
      if (!result.ok) return failureResult(host, result.failure);
      const saved = saveSpeech(ctx.workspaceDir, result.speech);
      if ("failure" in saved) return saved.failure;
      return deliver(ctx, host, result.speech, saved, args.text.trim().length);
    },
  };
}

/** The provider's failure as the model reads it: the kind picks the code; the reason never holds the key. */
function failureResult(host: SpeechHost, failure: { kind: string; reason: string }): ToolResult {
  const provider = `${host.provider}/${host.model}`;
  if (failure.kind === "invalid") return toolError(TOOL_ERRORS.ttsTextInvalid(failure.reason));
  if (failure.kind === "auth") return toolError(TOOL_ERRORS.ttsProviderAuth(provider, failure.reason));
  if (failure.kind === "timeout") return toolError(TOOL_ERRORS.ttsTimeout(provider, failure.reason));
  return toolError(TOOL_ERRORS.ttsProviderFailed(provider, failure.reason.replace(/[.\s]+$/, "")));
}

/** Writes the audio under `audio/` in the workspace, confined as `write` is, never over an existing file. */
function saveSpeech(workspaceDir: string, speech: SynthesizedSpeech): { relative: string; absolute: string } | { failure: ToolResult } {
  const dir = resolveWorkspacePath(workspaceDir, SPEECH_OUTPUT_DIR);
  if (!dir.ok) return { failure: dir.result };
  const name = `${SPEECH_OUTPUT_DIR}/${speechFileName(speech.extension)}`;
  try {
    fs.mkdirSync(dir.absolute, { recursive: true });
    // Resolved after audio/ exists, so its real path (and where a link there leads) is what is checked.
    const target = resolveWorkspacePath(workspaceDir, name);
    if (!target.ok) return { failure: target.result };
    fs.writeFileSync(target.absolute, speech.bytes, { flag: "wx" });
    return { relative: target.relative, absolute: target.absolute };
  } catch (error) {
    return { failure: fileSystemError(error, name) };
  }
}

/**
 * Posts the saved audio to the chat this turn answers, as a voice note where it is Ogg/Opus, and
 * says what happened. Without a chat (or a messenger) the file is only saved, and the model is
 * told where; a failed post is said with its reason, the file kept.
 */
async function deliver(ctx: ToolContext, host: SpeechHost, speech: SynthesizedSpeech, saved: { relative: string; absolute: string }, chars: number): Promise<ToolResult> {
  const made = `Spoke ${chars} characters with ${host.provider}/${host.model} (voice ${host.voice}): ${saved.relative} (${speech.mimeType}, ${formatBytes(speech.bytes.length)}).`;
  const details = { path: saved.relative, provider: host.provider, model: host.model, voice: host.voice, outputFormat: speech.format, voiceCompatible: speech.voiceCompatible };
  const messenger = ctx.services.channelMessenger;
  if (!ctx.channel || !ctx.sessionKey || !messenger) {
    return toolText(`${made} This conversation is not on a chat channel, so nothing was sent: tell the user the file's path.`, { ...details, delivered: false });
  }
  try {
    const sent = await messenger.send({
      message: "",
      sessionKey: ctx.sessionKey,
      file: { path: saved.absolute, fileName: path.basename(saved.absolute), ...(speech.voiceCompatible ? { voice: true } : {}) },
    });
    const as = speech.voiceCompatible && sent.channel === "telegram" ? "a voice note" : "an audio file";
    return toolText(`${made} Sent to this ${sent.channel} chat as ${as}: the user has it, so do not repeat its text; answer briefly or not at all.`, {
      ...details,
      delivered: true,
      channel: sent.channel,
      messageIds: sent.messageIds,
    });
  } catch (error) {
    return toolText(`${made} It could not be sent to the chat (${(error as Error).message}): answer in text instead.`, { ...details, delivered: false });
  }
}

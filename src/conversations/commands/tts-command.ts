import path from "node:path";
import { cachedSpeechSetup, synthesizeSpeech, writeSpeechFile } from "../../agents/speech/index.js";
import { configuredTtsProvider } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";

const USAGE = "Usage: /tts status | /tts audio <text>";

/**
 * `/tts status` (also bare `/tts`): the speech provider and whether it can speak. `/tts audio
 * <text>`: the text spoken once and posted to this chat (a voice note on Telegram), without
 * turning anything on. OpenClaw's `/tts on|off|chat|latest|provider|persona|limit|summary` change
 * Auto-TTS and local preferences, which this gateway does not have: each says so.
 */
export async function runTtsCommand(args: string, ctx: ChatCommandContext): Promise<string> {
  const [sub = "status"] = args.trim().split(/\s+/).filter(Boolean);
  const action = sub.toLowerCase();
  if (action === "status") return ttsStatus(ctx);
  if (action === "audio") return speakToChat(args.trim().slice(sub.length).trim(), ctx);
  if (["on", "off", "chat", "latest", "provider", "persona", "limit", "summary"].includes(action)) {
    return `/tts ${action} is not supported by this gateway: Auto-TTS, personas and local TTS preferences are not built. /tts audio <text> speaks once; the provider is set in the config (tts.provider).`;
  }
  return USAGE;
}

function ttsStatus(ctx: ChatCommandContext): string {
  const config = ctx.config();
  const setup = cachedSpeechSetup(config, process.env);
  if (!setup.host) return `🔇 TTS: off — ${setup.problem}.\nProvider: ${configuredTtsProvider(config)} · Auto-TTS: not supported here`;
  const { host } = setup;
  return [
    `🔊 TTS: ready — ${host.provider}/${host.model}, voice ${host.voice}`,
    `Format: ${host.responseFormat ?? "Opus voice notes on Telegram, MP3 elsewhere"} · limit ${host.maxTextLength} characters · timeout ${host.timeoutMs} ms`,
    "Auto-TTS: not supported here (replies stay text); /tts audio <text> speaks once.",
  ].join("\n");
}

async function speakToChat(text: string, ctx: ChatCommandContext): Promise<string> {
  if (!text) return "Usage: /tts audio <text>";
  const setup = cachedSpeechSetup(ctx.config(), process.env);
  if (!setup.host) return `🔇 TTS is off: ${setup.problem}.`;
  if (!ctx.speech || !ctx.chat) return "/tts audio posts audio to a chat; from an operator client use the tts.convert method instead.";
  // Nothing stops a command midway: the provider's own limit (tts.timeoutMs) ends the wait.
  const result = await synthesizeSpeech(setup.host, { text, channel: ctx.chat.channel }, new AbortController().signal);
  if (!result.ok) return `⚠️ No audio was made: ${setup.host.provider}/${setup.host.model}: ${result.failure.reason}.`;
  const file = writeSpeechFile(ctx.speech.dir, result.speech.bytes, result.speech.extension);
  try {
    await ctx.speech.post({ path: file, fileName: path.basename(file), ...(result.speech.voiceCompatible ? { voice: true } : {}) });
  } catch (error) {
    return `⚠️ The audio was made but could not be posted here: ${(error as Error).message}`;
  }
  // The audio is the answer: nothing more to say in text.
  return "";
}

import path from "node:path";
import { cachedSpeechSetup, effectiveAutoTts, synthesizeSpeech, writeSpeechFile } from "../../agents/speech/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import { configuredTtsProvider } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";

const USAGE = "Usage: /tts status | /tts on|off|always|inbound|default | /tts chat on|off|default | /tts audio <text>";

/** The chat's Auto-TTS choice each word stores (`default`: none, the gateway's and the config's decide again). */
const CHAT_CHOICES: Record<string, "off" | "always" | "inbound" | null> = {
  on: "always",
  always: "always",
  inbound: "inbound",
  off: "off",
  default: null,
  inherit: null,
  clear: null,
};

/** What each Auto-TTS mode does, as the command says it. */
const MODE_EFFECT = {
  off: "replies stay text",
  always: "each reply is also spoken",
  inbound: "replies to a voice message are also spoken",
} as const;

/**
 * `/tts status` (also bare `/tts`): the speech provider, whether it can speak, and the Auto-TTS mode
 * in effect with who chose it. `/tts on|off|always|inbound|default` (and OpenClaw's `/tts chat
 * on|off|default`): this chat's Auto-TTS mode, kept on its session row in sessions.json, over
 * the gateway's (`tts.enable`/`tts.disable`) and the config's (`tts.auto`). `/tts audio <text>`:
 * the text spoken once and posted here, turning nothing on. OpenClaw's `latest`, `provider`,
 * `persona`, `limit` and `summary` are not built: each says so.
 */
export async function runTtsCommand(args: string, ctx: ChatCommandContext): Promise<string> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [sub = "status"] = words;
  const action = sub.toLowerCase();
  if (action === "status") return ttsStatus(ctx);
  if (action === "audio") return speakToChat(args.trim().slice(sub.length).trim(), ctx);
  if (action === "chat") {
    const choice = (words[1] ?? "status").toLowerCase();
    if (choice === "status") return ttsStatus(ctx);
    return choice in CHAT_CHOICES ? setChatMode(CHAT_CHOICES[choice]!, ctx) : USAGE;
  }
  if (action in CHAT_CHOICES) return setChatMode(CHAT_CHOICES[action]!, ctx);
  if (["latest", "provider", "persona", "limit", "summary"].includes(action)) {
    return `/tts ${action} is not supported by this gateway: personas, other providers, summaries and a reply's replay are not built. /tts on|off sets Auto-TTS for this chat; /tts audio <text> speaks once.`;
  }
  return USAGE;
}

/** Stores (or, with null, clears) this chat's Auto-TTS mode on its session row, written at once so a restart keeps it. */
function setChatMode(mode: "off" | "always" | "inbound" | null, ctx: ChatCommandContext): string {
  const { sessions, sessionKey } = ctx;
  sessions.ensure(sessionKey, { agentId: parseSessionKey(sessionKey).agentId });
  sessions.patch(sessionKey, { ttsAuto: mode }, { durable: true });
  const effective = effectiveAutoTts(ctx.config(), mode ?? undefined, ctx.autoTtsPreference?.mode());
  const said =
    mode === null
      ? `🔊 Auto-TTS for this chat: back to the ${effective.source === "gateway" ? "gateway's" : "config's"} (${effective.mode}: ${MODE_EFFECT[effective.mode]}).`
      : `${mode === "off" ? "🔇" : "🔊"} Auto-TTS for this chat: ${mode} (${MODE_EFFECT[mode]}).`;
  const setup = cachedSpeechSetup(ctx.config(), process.env);
  return effective.mode !== "off" && !setup.host ? `${said}\n⚠️ Nothing is spoken yet: ${setup.problem}.` : said;
}

function ttsStatus(ctx: ChatCommandContext): string {
  const config = ctx.config();
  const setup = cachedSpeechSetup(config, process.env);
  const auto = effectiveAutoTts(config, ctx.sessions.peek(ctx.sessionKey)?.ttsAuto, ctx.autoTtsPreference?.mode());
  const autoLine = `Auto-TTS: ${auto.mode} (${MODE_EFFECT[auto.mode]}; set by ${AUTO_SOURCE[auto.source]})`;
  if (!setup.host) return `🔇 TTS: off — ${setup.problem}.\nProvider: ${configuredTtsProvider(config)} · ${autoLine}`;
  const { host } = setup;
  return [
    `🔊 TTS: ready — ${host.provider}/${host.model}, voice ${host.voice}`,
    `Format: ${host.responseFormat ?? "Opus voice notes on Telegram, MP3 elsewhere"} · limit ${host.maxTextLength} characters · timeout ${host.timeoutMs} ms`,
    `${autoLine}; /tts audio <text> speaks once.`,
  ].join("\n");
}

const AUTO_SOURCE = { chat: "this chat (/tts)", gateway: "the gateway (tts.enable/tts.disable)", config: "the config (tts.auto)" } as const;

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

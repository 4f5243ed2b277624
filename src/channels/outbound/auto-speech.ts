import path from "node:path";
import { type AutoTtsPreference, cachedSpeechSetup, effectiveAutoTts, spokenReplyText, synthesizeSpeech, writeSpeechFile } from "../../agents/speech/index.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { OutboundFile } from "../types.js";
import type { DeliveryTarget } from "./delivery-ledger.js";

/** What a turn did that decides whether its reply is spoken. */
export interface SpokenTurn {
  /** The message answered carried a voice message or another audio file (`tts.auto: inbound` speaks only then). */
  inboundAudio: boolean;
  /** Whether the run already posted a file to this chat (the `message` tool's file, the `tts` tool): the reply has media, so it is not spoken. Asked only while Auto-TTS is on. */
  sentMedia(): boolean;
}

export type SpeechFile = { ok: true; file: OutboundFile } | { ok: false; reason: string };

/** Auto-TTS as reply delivery uses it: which replies are spoken, and the audio for one. */
export interface AutoSpeechPort {
  /** The text to speak for a run's final reply to `target`, or undefined when it stays text only. */
  spokenText(sessionKey: string, target: DeliveryTarget, reply: string, turn: SpokenTurn): string | undefined;
  /** The text as audio in the channel's format, saved under the state dir; the reason (never a key) when none was made. */
  synthesize(text: string, channel: string): Promise<SpeechFile>;
}

export interface AutoSpeechDeps {
  config(): OpenClawConfig;
  /** A session's row, for its own `/tts` choice (`ttsAuto`). */
  session(sessionKey: string): { ttsAuto?: string } | undefined;
  /** The gateway's mode from `tts.enable`/`tts.disable`. */
  preference: AutoTtsPreference;
  /** Where the audio is saved (`<state>/media/tts`). */
  speechDir: string;
  logger: Logger;
}

/**
 * OpenClaw's Auto-TTS with `mode: "final"`: a run's final reply to a chat is also spoken when the
 * mode in effect (the chat's `/tts`, else the gateway's `tts.enable`/`tts.disable`, else `tts.auto`)
 * is `always`, or `inbound` and the message answered was audio. Replies that carry media, are very
 * short or mostly fenced code stay text (spokenReplyText); a long one is cut. Command answers never
 * come here: they are not run replies.
 */
export class AutoSpeech implements AutoSpeechPort {
  constructor(private readonly deps: AutoSpeechDeps) {}

  spokenText(sessionKey: string, target: DeliveryTarget, reply: string, turn: SpokenTurn): string | undefined {
    const config = this.deps.config();
    const { mode } = effectiveAutoTts(config, this.deps.session(sessionKey)?.ttsAuto, this.deps.preference.mode());
    // While Auto-TTS is off, the line above is all a reply costs.
    if (mode === "off") return undefined;
    // Only final replies are spoken; `mode: "all"` is refused at load.
    if ((config.tts?.mode ?? "final") !== "final") return undefined;
    if (mode === "inbound" && !turn.inboundAudio) return undefined;
    const log = { sessionKey, channel: target.channel, chatId: target.chatId };
    const setup = cachedSpeechSetup(config, process.env);
    if (!setup.host) {
      this.deps.logger.warn({ ...log, reason: setup.problem }, "reply not spoken (tts.auto): no speech provider can run");
      return undefined;
    }
    if (turn.sentMedia()) {
      this.deps.logger.debug(log, "reply not spoken (tts.auto): the turn already posted media to this chat");
      return undefined;
    }
    const spoken = spokenReplyText(reply, setup.host.maxTextLength);
    if ("skip" in spoken) {
      this.deps.logger.debug({ ...log, reason: spoken.skip }, "reply not spoken (tts.auto)");
      return undefined;
    }
    if (spoken.truncated) this.deps.logger.debug({ ...log, chars: reply.length, spoken: spoken.speak.length }, "reply cut before it is spoken (tts.auto)");
    return spoken.speak;
  }

  async synthesize(text: string, channel: string): Promise<SpeechFile> {
    const setup = cachedSpeechSetup(this.deps.config(), process.env);
    if (!setup.host) return { ok: false, reason: setup.problem };
    const { host } = setup;
    // Nothing cancels a delivery midway: the provider's own limit (tts.timeoutMs) ends the wait.
    const result = await synthesizeSpeech(host, { text, channel }, new AbortController().signal);
    if (!result.ok) return { ok: false, reason: `${host.provider}/${host.model}: ${result.failure.reason}` };
    const file = writeSpeechFile(this.deps.speechDir, result.speech.bytes, result.speech.extension);
    return { ok: true, file: { path: file, fileName: path.basename(file), ...(result.speech.voiceCompatible ? { voice: true } : {}) } };
  }
}

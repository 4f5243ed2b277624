import { Type } from "@sinclair/typebox";
import { AutoTtsPreference, cachedSpeechSetup, effectiveAutoTts, type SpeechHost, speechMediaDir, synthesizeSpeech, writeSpeechFile } from "../../agents/speech/index.js";
import { configuredTtsProvider, OPENAI_TTS_PROVIDER, type OpenClawConfig } from "../../config/index.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

/** OpenAI's speech models and voices, as `tts.providers` lists them for `openai`. */
const OPENAI_SPEECH_MODELS = ["gpt-4o-mini-tts", "tts-1", "tts-1-hd"];
const OPENAI_SPEECH_VOICES = ["alloy", "ash", "ballad", "cedar", "coral", "echo", "fable", "marin", "nova", "onyx", "sage", "shimmer", "verse"];

/**
 * `tts.status`, `tts.providers` (read), `tts.convert`, `tts.enable` and `tts.disable` (write), in
 * OpenClaw's shapes, for the one speech provider this gateway speaks through (the `tts` block:
 * docs/configuration.md#tts). `tts.enable`/`tts.disable` set the gateway's Auto-TTS mode
 * (always/off, kept under the state dir), which a chat's own `/tts on|off` overrides. Other
 * providers and personas are not supported, so `tts.setProvider` and the persona methods are not registered.
 */
export function registerTtsMethods(registry: MethodRegistry): void {
  registry.register({
    name: "tts.status",
    scope: "operator.read",
    params: Type.Object({}),
    handler: (_params, { runtime }) => {
      const config = runtime.config();
      const setup = cachedSpeechSetup(config, process.env);
      const provider = setup.host?.provider ?? configuredTtsProvider(config);
      const preference = AutoTtsPreference.forStateDir(runtime.stateDir);
      // The gateway's mode: what a chat without its own /tts choice follows.
      const auto = effectiveAutoTts(config, undefined, preference.mode());
      return {
        enabled: auto.mode !== "off",
        auto: auto.mode,
        autoSource: auto.source,
        prefsPath: preference.file,
        provider,
        configured: setup.host !== undefined,
        ...(setup.host ? { model: setup.host.model, voice: setup.host.voice } : { problem: setup.problem }),
        persona: null,
        personas: [],
        fallbackProvider: null,
        fallbackProviders: [],
        providerStates: [{ id: provider, label: providerLabel(provider), configured: setup.host !== undefined }],
      };
    },
  });

  for (const [name, mode] of [
    ["tts.enable", "always"],
    ["tts.disable", "off"],
  ] as const) {
    registry.register({
      name,
      scope: "operator.write",
      params: Type.Object({}),
      handler: (_params, { runtime }) => {
        AutoTtsPreference.forStateDir(runtime.stateDir).set(mode);
        return { enabled: mode !== "off" };
      },
    });
  }

  registry.register({
    name: "tts.providers",
    scope: "operator.read",
    params: Type.Object({}),
    handler: (_params, { runtime }) => {
      const config = runtime.config();
      const host = cachedSpeechSetup(config, process.env).host;
      const active = host?.provider ?? configuredTtsProvider(config);
      const ids = [...new Set([active, OPENAI_TTS_PROVIDER])];
      return {
        providers: ids.map((id) => ({
          id,
          name: providerLabel(id),
          configured: host?.provider === id,
          models: id === OPENAI_TTS_PROVIDER ? OPENAI_SPEECH_MODELS : host?.provider === id ? [host.model] : [],
          voices: id === OPENAI_TTS_PROVIDER ? OPENAI_SPEECH_VOICES : host?.provider === id ? [host.voice] : [],
        })),
        active,
      };
    },
  });

  registry.register({
    name: "tts.convert",
    scope: "operator.write",
    params: Type.Object({
      text: Type.String(),
      /** The channel the audio is for: it picks the format (Ogg/Opus for Telegram, else MP3). */
      channel: Type.Optional(Type.String()),
      /** Only the configured provider speaks here; naming another is refused. */
      provider: Type.Optional(Type.String()),
      modelId: Type.Optional(Type.String({ minLength: 1 })),
      voiceId: Type.Optional(Type.String({ minLength: 1 })),
    }),
    handler: async (params, { runtime, signal }) => {
      if (!params.text.trim()) throw invalidRequest("tts.convert requires text");
      const host = convertHost(runtime.config(), params);
      const result = await synthesizeSpeech(host, { text: params.text, ...(params.channel ? { channel: params.channel } : {}) }, signal);
      if (!result.ok) {
        if (result.failure.kind === "invalid") throw invalidRequest(`tts.convert: ${result.failure.reason}`);
        throw new GatewayError({
          code: ErrorCodes.UNAVAILABLE,
          message: `TTS conversion failed: ${host.provider}/${host.model}: ${result.failure.reason}`,
          // A refused key stays refused; a timeout or a server failure may pass.
          retryable: result.failure.kind !== "auth",
        });
      }
      const audioPath = writeSpeechFile(speechMediaDir(runtime.stateDir), result.speech.bytes, result.speech.extension);
      return { audioPath, provider: host.provider, outputFormat: result.speech.format, voiceCompatible: result.speech.voiceCompatible };
    },
  });
}

/** The configured host with the call's model and voice; a call naming another provider, or none set up, is refused. */
function convertHost(config: OpenClawConfig, params: { provider?: string; modelId?: string; voiceId?: string }): SpeechHost {
  const setup = cachedSpeechSetup(config, process.env);
  if (!setup.host) throw new GatewayError({ code: ErrorCodes.UNAVAILABLE, message: `TTS is not available: ${setup.problem}` });
  const provider = params.provider?.trim();
  if (provider && provider !== setup.host.provider) {
    throw invalidRequest(`provider "${provider}" cannot be used here: this gateway speaks only through tts.provider ("${setup.host.provider}")`);
  }
  return { ...setup.host, ...(params.modelId ? { model: params.modelId } : {}), ...(params.voiceId ? { voice: params.voiceId } : {}) };
}

function providerLabel(id: string): string {
  return id === OPENAI_TTS_PROVIDER ? "OpenAI" : id;
}

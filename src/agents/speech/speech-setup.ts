import {
  configuredTtsProvider,
  DEFAULT_OPENAI_TTS_MODEL,
  DEFAULT_OPENAI_TTS_VOICE,
  DEFAULT_TTS_MAX_TEXT_LENGTH,
  DEFAULT_TTS_TIMEOUT_MS,
  OPENAI_TTS_PROVIDER,
  type OpenClawConfig,
  type TTS_RESPONSE_FORMATS,
  ttsProviderProblem,
} from "../../config/index.js";
import { apiKeyEnvVar, BUILTIN_PROVIDERS, usableApiKey } from "../../models/index.js";

export type SpeechFormat = (typeof TTS_RESPONSE_FORMATS)[number];

/** The one speech provider this config speaks through, resolved: what every synthesis sends. */
export interface SpeechHost {
  provider: string;
  model: string;
  voice: string;
  baseUrl: string;
  apiKey?: string;
  instructions?: string;
  /** Set only when `responseFormat` is configured: it then wins over the channel's format. */
  responseFormat?: SpeechFormat;
  speed?: number;
  extraBody?: Record<string, unknown>;
  timeoutMs: number;
  maxTextLength: number;
}

/** The speech host for this config, or why there is none (then the tts tool, /tts audio and tts.convert do not speak). */
export type SpeechSetup = { host: SpeechHost; problem?: undefined } | { host?: undefined; problem: string };

/**
 * The provider `tts` speaks through: `tts.provider` (default openai) with its `tts.providers.<id>`
 * settings. Its endpoint and key are resolved as `tools.media` transcription resolves them: the
 * block's own baseUrl and apiKey, else (`OPENAI_TTS_BASE_URL` for openai) `models.providers.<id>`,
 * else OpenAI's built-in endpoint and `<ID>_API_KEY`. `openai` needs its key; a server of your own
 * may take none, but needs a model and a voice. Without a `tts` block TTS is off, so no turn of a
 * config that never asked for speech carries the tool.
 */
export function speechSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): SpeechSetup {
  const tts = config.tts;
  if (!tts) return { problem: "text-to-speech is not set up: add a tts block (tts.provider, tts.providers.<id>)" };
  const provider = configuredTtsProvider(config);
  const problem = ttsProviderProblem(config, provider);
  if (problem) return { problem };
  const settings = tts.providers?.[provider] ?? {};
  const configured = config.models?.providers?.[provider];
  const isOpenAi = provider === OPENAI_TTS_PROVIDER;
  const baseUrl =
    settings.baseUrl ?? (isOpenAi ? env.OPENAI_TTS_BASE_URL?.trim() || undefined : undefined) ?? configured?.baseUrl ?? (isOpenAi ? BUILTIN_PROVIDERS.openai!.baseUrl : undefined);
  if (!baseUrl) return { problem: `no baseUrl for speech provider "${provider}" (set tts.providers.${provider}.baseUrl or models.providers.${provider}.baseUrl)` };
  const envVar = apiKeyEnvVar(provider);
  const apiKey = usableApiKey(settings.apiKey) ?? usableApiKey(configured?.apiKey) ?? (env[envVar]?.trim() || undefined);
  if (isOpenAi && !apiKey) return { problem: `no API key for openai (set tts.providers.openai.apiKey, models.providers.openai.apiKey or ${envVar} in the gateway's environment)` };
  const model = settings.model ?? (isOpenAi ? DEFAULT_OPENAI_TTS_MODEL : undefined);
  if (!model) return { problem: `no speech model for provider "${provider}" (set tts.providers.${provider}.model)` };
  const voice = settings.speakerVoice ?? settings.voice ?? (isOpenAi ? DEFAULT_OPENAI_TTS_VOICE : undefined);
  if (!voice) return { problem: `no voice for provider "${provider}" (set tts.providers.${provider}.speakerVoice)` };
  return {
    host: {
      provider,
      model,
      voice,
      baseUrl,
      ...(apiKey ? { apiKey } : {}),
      ...(settings.instructions ? { instructions: settings.instructions } : {}),
      ...(settings.responseFormat ? { responseFormat: settings.responseFormat } : {}),
      ...(settings.speed !== undefined ? { speed: settings.speed } : {}),
      ...(settings.extraBody ? { extraBody: settings.extraBody } : {}),
      timeoutMs: tts.timeoutMs ?? DEFAULT_TTS_TIMEOUT_MS,
      maxTextLength: tts.maxTextLength ?? DEFAULT_TTS_MAX_TEXT_LENGTH,
    },
  };
}

const setups = new WeakMap<OpenClawConfig, SpeechSetup>();

/** The setup for a loaded config, worked out once per config (a reload brings a new one): every turn asks. */
export function cachedSpeechSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): SpeechSetup {
  let setup = setups.get(config);
  if (!setup) setups.set(config, (setup = speechSetup(config, env)));
  return setup;
}

import type { OpenClawConfig } from "../../config/index.js";
import { BUILT_IN_TRANSCRIBERS, mediaEntryCapabilities } from "../../config/media-entry-capabilities.js";
import { apiKeyEnvVar, usableApiKey } from "../../models/index.js";

/** One way to turn an audio file into text, in the order they are tried. */
export type TranscriptionAttempt =
  | ({ kind: "provider"; provider: string; model: string; baseUrl: string; apiKey?: string; prompt?: string } & AttemptLimits)
  | ({ kind: "cli"; command: string; args: string[] } & AttemptLimits)
  /** A listed entry that cannot run here: tried as a failure naming why, then the next one. */
  | { kind: "unusable"; label: string; reason: string };

interface AttemptLimits {
  label: string;
  language?: string;
  maxBytes: number;
  maxChars?: number;
  timeoutMs: number;
}

export interface TranscriptionPlan {
  attempts: TranscriptionAttempt[];
  /** The echo's text with `{transcript}` in it, when `echoTranscript` is on. */
  echoFormat?: string;
}

export const AUDIO_DEFAULTS = { maxBytes: 20 * 1024 * 1024, timeoutSeconds: 60, echoFormat: '📝 "{transcript}"' } as const;

/**
 * Providers that speak OpenAI's `/audio/transcriptions` without being configured, with the model
 * each uses when an entry names none; auto-detection tries them in this order when their key is set.
 */
const TRANSCRIPTION_PROVIDERS: Record<(typeof BUILT_IN_TRANSCRIBERS)[number], { baseUrl: string; model: string }> = {
  groq: { baseUrl: "https://api.groq.com/openai/v1", model: "whisper-large-v3-turbo" },
  openai: { baseUrl: "https://api.openai.com/v1", model: "gpt-4o-transcribe" },
};

type MediaEntry = NonNullable<NonNullable<NonNullable<OpenClawConfig["tools"]>["media"]>["models"]>[number];

/**
 * The transcription attempts for this config: the `tools.media.models` entries for audio, in
 * order, else (none listed) the first provider whose key is set (Groq, then OpenAI), as
 * OpenClaw's auto-detection finds them. `tools.media.audio.enabled: false` turns it all off.
 */
export function transcriptionPlan(config: OpenClawConfig, env: NodeJS.ProcessEnv): TranscriptionPlan {
  const settings = config.tools?.media?.audio ?? {};
  if (settings.enabled === false) return { attempts: [] };
  const defaults = {
    maxBytes: settings.maxBytes ?? AUDIO_DEFAULTS.maxBytes,
    timeoutMs: (settings.timeoutSeconds ?? AUDIO_DEFAULTS.timeoutSeconds) * 1000,
    ...(settings.maxChars ? { maxChars: settings.maxChars } : {}),
    ...(settings.language ? { language: settings.language } : {}),
  };
  const listed = (config.tools?.media?.models ?? []).filter(isForAudio);
  const attempts = listed.length > 0 ? listed.map((entry) => attemptFor(entry, config, env, defaults, settings.prompt)) : autoDetected(config, env, defaults, settings.prompt);
  return { attempts, ...(settings.echoTranscript ? { echoFormat: settings.echoFormat ?? AUDIO_DEFAULTS.echoFormat } : {}) };
}

/** An entry is for audio when its `capabilities` say so; without them, when its provider's defaults do (never a command's). */
export function isForAudio(entry: MediaEntry): boolean {
  return mediaEntryCapabilities(entry).includes("audio");
}

type Defaults = Omit<AttemptLimits, "label">;

function attemptFor(entry: MediaEntry, config: OpenClawConfig, env: NodeJS.ProcessEnv, defaults: Defaults, prompt: string | undefined): TranscriptionAttempt {
  const limits = {
    ...defaults,
    ...(entry.maxBytes ? { maxBytes: entry.maxBytes } : {}),
    ...(entry.timeoutSeconds ? { timeoutMs: entry.timeoutSeconds * 1000 } : {}),
    ...(entry.maxChars ? { maxChars: entry.maxChars } : {}),
    ...(entry.language ? { language: entry.language } : {}),
  };
  if (entry.type === "cli") {
    const label = `cli:${entry.command ?? "(no command)"}`;
    if (!entry.command || !entry.args?.length) return { kind: "unusable", label, reason: "a command entry needs command and args (pass the file with {{AttachmentPath}})" };
    return { kind: "cli", command: entry.command, args: entry.args, label, ...limits };
  }
  const provider = entry.provider;
  if (!provider) return { kind: "unusable", label: "(no provider)", reason: "a provider entry needs provider" };
  return providerAttempt(provider, entry.model, entry.baseUrl, config, env, limits, entry.prompt ?? prompt);
}

function providerAttempt(
  provider: string,
  model: string | undefined,
  baseUrl: string | undefined,
  config: OpenClawConfig,
  env: NodeJS.ProcessEnv,
  limits: Defaults,
  prompt: string | undefined,
): TranscriptionAttempt {
  const builtin = (BUILT_IN_TRANSCRIBERS as readonly string[]).includes(provider) ? TRANSCRIPTION_PROVIDERS[provider as (typeof BUILT_IN_TRANSCRIBERS)[number]] : undefined;
  const configured = config.models?.providers?.[provider];
  const openAiWire = configured?.api === undefined || configured.api === "openai-completions" || configured.api === "openai-responses";
  const label = `${provider}/${model ?? builtin?.model ?? "(no model)"}`;
  if (!builtin && !(configured && openAiWire)) {
    return {
      kind: "unusable",
      label,
      reason: `provider "${provider}" cannot transcribe here: only OpenAI's /audio/transcriptions is spoken (openai, groq, or a models.providers entry with an openai-* api)`,
    };
  }
  const endpoint = baseUrl ?? configured?.baseUrl ?? builtin?.baseUrl;
  if (!endpoint) return { kind: "unusable", label, reason: `no baseUrl for provider "${provider}" (set models.providers.${provider}.baseUrl)` };
  const chosenModel = model ?? builtin?.model;
  if (!chosenModel) return { kind: "unusable", label, reason: `no model named: set the entry's model (the provider's transcription model, such as whisper-1)` };
  const apiKey = usableApiKey(configured?.apiKey) ?? nonEmpty(env[apiKeyEnvVar(provider)]);
  // A provider of OpenClaw's own needs its key; a server of your own (a local Whisper) may take none.
  if (builtin && !apiKey) return { kind: "unusable", label, reason: `no API key for ${provider} (models.providers.${provider}.apiKey or ${apiKeyEnvVar(provider)})` };
  return { kind: "provider", provider, model: chosenModel, baseUrl: endpoint, label, ...limits, ...(apiKey ? { apiKey } : {}), ...(prompt ? { prompt } : {}) };
}

function autoDetected(config: OpenClawConfig, env: NodeJS.ProcessEnv, defaults: Defaults, prompt: string | undefined): TranscriptionAttempt[] {
  for (const provider of BUILT_IN_TRANSCRIBERS) {
    const attempt = providerAttempt(provider, undefined, undefined, config, env, defaults, prompt);
    if (attempt.kind === "provider") return [attempt];
  }
  return [];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

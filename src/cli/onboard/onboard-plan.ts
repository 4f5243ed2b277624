import { apiKeyEnvVar, BUILTIN_PROVIDERS, ollamaKeyOptional, SUPPORTED_APIS } from "../../models/index.js";
import { CliError } from "../output.js";

/** What onboarding decided, from flags or from the prompts. */
export interface OnboardPlan {
  provider: string;
  model: string;
  /** The environment variable the gateway reads the provider's key from. */
  apiKeyEnv: string;
  /** Only for a provider that is not built in (or a different endpoint). */
  baseUrl?: string;
  api?: string;
  port: number;
}

/** A model that works with each built-in provider's key, offered as the default. */
export const DEFAULT_MODELS: Record<string, string> = { anthropic: "claude-sonnet-4-5", openai: "gpt-4.1" };

export const PROVIDER_ID = /^[a-z0-9][a-z0-9-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isBuiltinProvider(provider: string): boolean {
  return Object.hasOwn(BUILTIN_PROVIDERS, provider);
}

/** Checks a plan made from flags; every problem names the flag to change. */
export function checkPlan(plan: OnboardPlan): OnboardPlan {
  if (!PROVIDER_ID.test(plan.provider)) throw new CliError(`--provider: "${plan.provider}" is not a provider id (lower-case letters, digits, -)`);
  if (!plan.model.trim() || /\s/.test(plan.model)) throw new CliError("--model: expected a model id such as claude-sonnet-4-5");
  if (!ENV_NAME.test(plan.apiKeyEnv)) throw new CliError(`--api-key-env: "${plan.apiKeyEnv}" is not an environment variable name`);
  if (!isBuiltinProvider(plan.provider)) {
    if (!plan.baseUrl) throw new CliError(`--base-url is needed for provider "${plan.provider}" (built in: ${Object.keys(BUILTIN_PROVIDERS).join(", ")})`);
    if (!plan.api) throw new CliError(`--api is needed for provider "${plan.provider}": one of ${SUPPORTED_APIS.join(", ")}`);
  }
  if (plan.api && !(SUPPORTED_APIS as readonly string[]).includes(plan.api)) throw new CliError(`--api: expected one of ${SUPPORTED_APIS.join(", ")}`);
  if (plan.baseUrl && !/^https?:\/\/\S+$/.test(plan.baseUrl)) throw new CliError("--base-url: expected an http(s) URL");
  return plan;
}

/** The key variable a provider reads without configuration (`ANTHROPIC_API_KEY`, …). */
export function defaultKeyEnv(provider: string): string {
  return apiKeyEnvVar(provider);
}

/** Whether the config must name the provider (custom endpoint, api or key variable). */
export function needsProviderBlock(plan: OnboardPlan): boolean {
  if (!planNeedsKey(plan)) return !isBuiltinProvider(plan.provider) || plan.baseUrl !== undefined || plan.api !== undefined;
  return !isBuiltinProvider(plan.provider) || plan.baseUrl !== undefined || plan.api !== undefined || plan.apiKeyEnv !== defaultKeyEnv(plan.provider);
}

/** Whether the plan's provider takes a key: an Ollama server on this machine or the LAN does not. */
export function planNeedsKey(plan: OnboardPlan): boolean {
  const builtin = Object.hasOwn(BUILTIN_PROVIDERS, plan.provider) ? BUILTIN_PROVIDERS[plan.provider] : undefined;
  const api = plan.api ?? builtin?.api;
  const baseUrl = plan.baseUrl ?? builtin?.baseUrl;
  return !(api === "ollama" && baseUrl !== undefined && ollamaKeyOptional(baseUrl));
}

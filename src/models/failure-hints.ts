import { apiKeyEnvVar } from "./builtin-providers.js";
import { urlWithoutCredentials } from "./model-errors.js";
import type { ClassifiedModelError } from "./types.js";

/** Where a wire format posts its requests: the SDK's base URL and the path it appends. */
export interface EndpointShape {
  /** The base URL the SDK was given (an OpenAI-style one ends in `/v1`). */
  baseUrl: string;
  /** What the SDK appends: `/chat/completions`, `/responses`, `/v1/messages`. */
  path: string;
  /** True when the configured baseUrl must carry the API version itself (the OpenAI SDK). */
  baseUrlCarriesVersion: boolean;
}

/**
 * A provider failure says what the server answered, not what to change. This adds the URL that
 * was called and the likely fix for the failures a setting causes: a 404 (a baseUrl without its
 * `/v1`, as Ollama, LM Studio and vLLM serve `/v1/chat/completions`, or a model id the server
 * does not have), a refused key (401/403), and a server that cannot be reached.
 */
export function withFailureHint(error: ClassifiedModelError, endpoint: EndpointShape, model: { provider: string; id: string }): ClassifiedModelError {
  const base = urlWithoutCredentials(endpoint.baseUrl.replace(/\/+$/, ""));
  const fix = likelyFix(error, base, endpoint, model);
  return fix ? { ...error, message: `${error.message} (called POST ${base}${endpoint.path}; ${fix})` } : error;
}

function likelyFix(error: ClassifiedModelError, base: string, endpoint: EndpointShape, model: { provider: string; id: string }): string | undefined {
  const setting = `models.providers.${model.provider}`;
  if (error.status === 404) {
    if (endpoint.baseUrlCarriesVersion && !/\/v\d+[a-z0-9]*$/i.test(base)) return `did you mean ${setting}.baseUrl: "${base}/v1"?`;
    return `check that the server has model "${model.id}" and that ${setting}.baseUrl is its API root`;
  }
  if (error.kind === "auth") return `check the key: ${apiKeyEnvVar(model.provider)}, ${setting}.apiKey or auth-profiles.json`;
  if (error.kind === "network") return `is the server running there? Check ${setting}.baseUrl`;
  return undefined;
}

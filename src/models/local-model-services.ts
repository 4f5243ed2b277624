import type { ModelProviderConfig } from "../config/index.js";
import { LocalServiceSupervisor } from "../infra/local-services/local-service-supervisor.js";
import type { LocalServiceSpec } from "../infra/local-services/local-service-spec.js";

/** `localService.readyTimeoutMs` when unset: a cold start that loads a large model takes a while. */
export const DEFAULT_LOCAL_SERVICE_READY_TIMEOUT_MS = 120_000;

/**
 * The local model servers of this process. One supervisor for model and embedding requests
 * alike, so both lease the same server of a provider.
 */
export const localModelServices = new LocalServiceSupervisor();

/**
 * The server to lease before a request to this provider, or undefined when it has none. The
 * health URL defaults to `<baseUrl>/models` (an OpenAI-compatible server's model list), and to
 * `<baseUrl>/api/tags` for `api: "ollama"` (the provider's own or the built-in one's), whose baseUrl is the server's root.
 */
export function localServiceSpecOf(
  providerId: string,
  provider: ModelProviderConfig | undefined,
  where: { baseUrl: string; api: string; apiKey?: string },
): LocalServiceSpec | undefined {
  const service = provider?.localService;
  if (!service) return undefined;
  const { api, apiKey } = where;
  const root = where.baseUrl.replace(/\/+$/, "");
  return {
    label: `models.providers.${providerId}.localService`,
    command: service.command,
    args: service.args ?? [],
    ...(service.cwd ? { cwd: service.cwd } : {}),
    ...(service.env ? { env: service.env } : {}),
    healthUrl: service.healthUrl ?? (api === "ollama" ? `${root}/api/tags` : `${root}/models`),
    ...(provider.headers ? { healthHeaders: provider.headers } : {}),
    readyTimeoutMs: service.readyTimeoutMs ?? DEFAULT_LOCAL_SERVICE_READY_TIMEOUT_MS,
    idleStopMs: service.idleStopMs ?? 0,
    ...(apiKey ? { secrets: [apiKey] } : {}),
  };
}

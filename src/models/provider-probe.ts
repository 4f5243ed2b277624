import { ollamaBearerKey } from "./ollama-auth.js";
import type { ProviderModel } from "./types.js";

export type ProviderProbe = { ok: true; url: string; status: number; modelListed: boolean | undefined } | { ok: false; url: string; problem: string; fix: string };

const ANTHROPIC_VERSION = "2023-06-01";

/** The provider's model list: free, needs the key, and proves endpoint and key in one request. */
function modelListRequest(model: ProviderModel): { url: string; headers: Record<string, string> } {
  const base = (model.baseUrl ?? "").replace(/\/+$/, "");
  const headers: Record<string, string> = { ...(model.headers ?? {}) };
  if (model.api === "anthropic-messages") {
    if (model.apiKey) {
      if (model.authType === "token") headers.authorization = `Bearer ${model.apiKey}`;
      else headers["x-api-key"] = model.apiKey;
    }
    headers["anthropic-version"] = ANTHROPIC_VERSION;
    return { url: `${base}/v1/models`, headers };
  }
  if (model.api === "ollama") {
    const key = ollamaBearerKey(model.apiKey);
    if (key) headers.authorization = `Bearer ${key}`;
    return { url: `${base}/api/tags`, headers };
  }
  if (model.apiKey) headers.authorization = `Bearer ${model.apiKey}`;
  return { url: `${base}/models`, headers };
}

/**
 * One cheap request to the model's provider (GET its model list): reachable, key accepted, and
 * whether the model is listed. Never says the key. Used by `openclaw doctor` and `openclaw onboard`.
 */
export async function probeProvider(model: ProviderModel, timeoutMs = 10_000): Promise<ProviderProbe> {
  const { url, headers } = modelListRequest(model);
  // An unset variable stays in the config as its literal reference; sending that would only earn a 401.
  const unset = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(model.apiKey ?? "")?.[1];
  if (unset) {
    return {
      ok: false,
      url,
      problem: `the key of provider "${model.provider}" comes from the environment variable ${unset}, which is not set`,
      fix: `export ${unset}=<your key> (for a service: set it in the service's environment)`,
    };
  }
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (err as Error).name;
    return {
      ok: false,
      url,
      problem: `provider "${model.provider}" is not reachable at ${url} (${reason === "TimeoutError" ? `no answer in ${timeoutMs / 1000} s` : reason})`,
      fix: `check models.providers.${model.provider}.baseUrl and the network`,
    };
  }
  const body = await res.text().catch(() => "");
  if (res.status === 401 || res.status === 403) {
    return {
      ok: false,
      url,
      problem: `provider "${model.provider}" refused the API key (HTTP ${res.status})`,
      fix: `set a valid key in models.providers.${model.provider}.apiKey or its environment variable`,
    };
  }
  if (!res.ok) {
    return { ok: false, url, problem: `provider "${model.provider}" answered HTTP ${res.status} to ${url}`, fix: `check models.providers.${model.provider}.baseUrl and api` };
  }
  let modelListed: boolean | undefined;
  try {
    modelListed = model.api === "ollama" ? ollamaModelListed(body, model.id) : listedModel(body, model.id);
  } catch {
    modelListed = undefined;
  }
  return { ok: true, url, status: res.status, modelListed };
}

function listedModel(body: string, id: string): boolean | undefined {
  const data = (JSON.parse(body) as { data?: { id?: string }[] }).data;
  return Array.isArray(data) ? data.some((entry) => entry.id === id) : undefined;
}

/** `/api/tags` lists `name: "qwen3:8b"`; a model asked for without a tag is its `:latest`. */
function ollamaModelListed(body: string, id: string): boolean | undefined {
  const models = (JSON.parse(body) as { models?: { name?: string; model?: string }[] }).models;
  if (!Array.isArray(models)) return undefined;
  const wanted = id.includes(":") ? [id] : [id, `${id}:latest`];
  return models.some((entry) => wanted.includes(entry.name ?? "") || wanted.includes(entry.model ?? ""));
}

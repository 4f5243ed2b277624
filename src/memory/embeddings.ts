import { createHash } from "node:crypto";
import { nodeHttpFetch } from "../models/node-http-fetch.js";
import { apiKeyEnvVar, localModelServices, redactSecrets, urlWithoutCredentials } from "../models/index.js";
import type { EmbeddingSettings } from "./settings.js";

/** Turns texts into vectors. `key` identifies the endpoint in the embedding cache. */
export interface Embedder {
  readonly provider: string;
  readonly model: string;
  readonly key: string;
  /**
   * `retries`: how many of the retry delays to use (a search waits less than an index run).
   * `onUsage`: told the input tokens of each answer that reports them.
   */
  embed(texts: string[], options?: { signal?: AbortSignal; retries?: number; onUsage?: (promptTokens: number) => void }): Promise<Float32Array[]>;
}

/**
 * `unreachable`: no HTTP answer at all (refused, DNS, timeout). `bad-response`: an error status
 * after retries, or vectors that are missing, of the wrong size, or not finite numbers.
 */
export class EmbeddingError extends Error {
  constructor(
    readonly kind: "unreachable" | "bad-response",
    message: string,
  ) {
    super(message);
    this.name = "EmbeddingError";
  }
}

const RETRY_DELAYS_MS = [250, 1_000, 3_000];
const REQUEST_TIMEOUT_MS = 30_000;
/** One request carries at most this many characters, whatever the batch size. */
const MAX_BATCH_CHARS = 200_000;

type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

/**
 * An OpenAI-compatible `POST {baseUrl}/embeddings` client: batched, retried on 429 and 5xx
 * (honouring a short `retry-after`), and strict about what comes back: one finite vector per
 * input, all of one size.
 */
export function createRemoteEmbedder(settings: Extract<EmbeddingSettings, { kind: "remote" }>, fetchFn: FetchFn = nodeHttpFetch): Embedder {
  const url = `${settings.baseUrl}/embeddings`;
  const key = createHash("sha256").update(`${settings.baseUrl}\n${settings.model}`).digest("hex").slice(0, 16);
  const where = `${settings.provider} (${urlWithoutCredentials(settings.baseUrl) || "no baseUrl"})`;

  const request = async (input: string[], signal: AbortSignal | undefined, retries: number, onUsage?: (promptTokens: number) => void): Promise<Float32Array[]> => {
    if (!settings.baseUrl)
      throw new EmbeddingError(
        "unreachable",
        `embedding provider "${settings.provider}" has no endpoint: set memory.search.remote.baseUrl or models.providers.${settings.provider}.baseUrl`,
      );
    const body = JSON.stringify({ model: settings.model, input, encoding_format: "float" });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      let response: Response;
      try {
        response = await fetchFn(url, { method: "POST", headers, body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt < retries) {
          await delay(RETRY_DELAYS_MS[attempt]!, signal);
          continue;
        }
        throw new EmbeddingError("unreachable", `embedding provider ${where} is unreachable: ${describeNetworkError(error)}${unreachableHint(settings.provider)}`);
      }
      if ((response.status === 429 || response.status >= 500) && attempt < retries) {
        await response.arrayBuffer().catch(() => undefined);
        await delay(retryAfterMs(response) ?? RETRY_DELAYS_MS[attempt]!, signal);
        continue;
      }
      const text = await response.text();
      if (!response.ok) {
        const hint = statusHint(response.status, settings.provider, settings.model);
        throw new EmbeddingError("bad-response", `embedding provider ${where} answered HTTP ${response.status}: ${redactSecrets(text.slice(0, 300), [settings.apiKey])}${hint}`);
      }
      return parseVectors(text, input.length, where, onUsage);
    }
  };

  return {
    provider: settings.provider,
    model: settings.model,
    key,
    async embed(texts, options = {}) {
      const retries = Math.min(options.retries ?? RETRY_DELAYS_MS.length, RETRY_DELAYS_MS.length);
      // A provider's local server is leased for all the batches, started first when it is down.
      let lease: { release(): void } | undefined;
      if (settings.localService) {
        try {
          lease = await localModelServices.lease(settings.localService, options.signal);
        } catch (error) {
          if (options.signal?.aborted) throw error;
          throw new EmbeddingError("unreachable", `embedding provider ${where} is unreachable: ${(error as Error).message}`);
        }
      }
      try {
        const out: Float32Array[] = [];
        for (const batch of batches(texts, settings.batchSize)) out.push(...(await request(batch, options.signal, retries, options.onUsage)));
        return out;
      } finally {
        lease?.release();
      }
    },
  };
}

function parseVectors(text: string, expected: number, where: string, onUsage?: (promptTokens: number) => void): Float32Array[] {
  let parsed: { data?: { embedding?: unknown; index?: number }[]; usage?: { prompt_tokens?: unknown } };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EmbeddingError("bad-response", `embedding provider ${where} answered with something that is not JSON`);
  }
  const data = Array.isArray(parsed?.data) ? parsed.data : undefined;
  if (!data || data.length !== expected) {
    throw new EmbeddingError("bad-response", `embedding provider ${where} returned ${data?.length ?? 0} vectors for ${expected} inputs`);
  }
  const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const vectors = ordered.map((item, i) => {
    const values = item.embedding;
    if (!Array.isArray(values) || values.length === 0) throw new EmbeddingError("bad-response", `embedding provider ${where} returned no vector for input ${i}`);
    // JSON cannot carry NaN: servers send null (or a string) in its place.
    if (values.some((v) => typeof v !== "number" || !Number.isFinite(v))) {
      throw new EmbeddingError("bad-response", `embedding provider ${where} returned a vector with NaN, null or infinite values`);
    }
    return Float32Array.from(values as number[]);
  });
  const dims = vectors[0]!.length;
  if (vectors.some((v) => v.length !== dims)) throw new EmbeddingError("bad-response", `embedding provider ${where} returned vectors of different sizes`);
  const promptTokens = parsed.usage?.prompt_tokens;
  if (typeof promptTokens === "number" && Number.isFinite(promptTokens)) onUsage?.(promptTokens);
  return vectors;
}

function* batches(texts: string[], size: number): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (batch.length > 0 && (batch.length >= size || chars + text.length > MAX_BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(text);
    chars += text.length;
  }
  if (batch.length > 0) yield batch;
}

/** The likely fix of an error status a setting causes: a refused key, a wrong model or path. */
function statusHint(status: number, provider: string, model: string): string {
  if (status === 401 || status === 403) return ` (check the key: memory.search.remote.apiKey, models.providers.${provider}.apiKey or ${apiKeyEnvVar(provider)})`;
  if (status === 404) return ` (check that the server has model "${model}" (memory.search.model) and that the baseUrl is its API root, usually ending in /v1)`;
  return "";
}

function unreachableHint(provider: string): string {
  return ` (is the server running there? Check memory.search.remote.baseUrl or models.providers.${provider}.baseUrl)`;
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 && seconds <= 10 ? seconds * 1000 : undefined;
}

function describeNetworkError(error: unknown): string {
  const err = error as { name?: string; code?: string; cause?: { code?: string }; message?: string };
  if (err?.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return err?.code ?? err?.cause?.code ?? err?.message ?? String(error);
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

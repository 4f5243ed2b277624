import type { ModelApi, ModelRequest, ModelStreamEvent, ProviderModel, StreamModelFn } from "./types.js";
import type { LocalServiceLease } from "../infra/local-services/local-service-supervisor.js";
import { AssistantTurn } from "./assistant-turn.js";
import { localModelServices } from "./local-model-services.js";

type ProviderLoader = () => Promise<StreamModelFn>;

// Each SDK is imported on first use: the gateway starts without loading either, and a
// deployment that only uses one provider never loads the other.
const PROVIDERS: Record<ModelApi, ProviderLoader> = {
  "anthropic-messages": async () => (await import("./anthropic-provider.js")).createAnthropicStream(),
  "openai-completions": async () => (await import("./openai-completions-provider.js")).createOpenAICompletionsStream(),
  "openai-responses": async () => (await import("./openai-responses-provider.js")).createOpenAIResponsesStream(),
  ollama: async () => (await import("./ollama-provider.js")).createOllamaStream(),
};

/** A StreamModelFn that can also load a provider ahead of its first request. */
export interface StreamModel extends StreamModelFn {
  /** Import these APIs' provider modules now (errors are left for the first real request to report); Chat Completions loads its SDK only when a request needs it. */
  warmUp(apis: Iterable<ModelApi>): void;
}

/** The StreamModelFn the agent loop uses: dispatches each request on `request.model.api`. */
export function createStreamModel(): StreamModel {
  const loaded = new Map<ModelApi, Promise<StreamModelFn>>();
  const load = (api: ModelApi): Promise<StreamModelFn> => {
    let pending = loaded.get(api);
    if (!pending) {
      pending = PROVIDERS[api]();
      loaded.set(api, pending);
      // A failed import may be transient (e.g. EMFILE); let the next request try again.
      pending.catch(() => loaded.delete(api));
    }
    return pending;
  };
  const stream: StreamModelFn = (request, signal) => dispatch(request, signal, load);
  return Object.assign(stream, {
    warmUp(apis: Iterable<ModelApi>): void {
      for (const api of apis) if (Object.hasOwn(PROVIDERS, api)) load(api).catch(() => {});
    },
  });
}

async function* dispatch(request: ModelRequest, signal: AbortSignal, load: (api: ModelApi) => Promise<StreamModelFn>): AsyncGenerator<ModelStreamEvent> {
  const api = request.model.api;
  if (!Object.hasOwn(PROVIDERS, api)) {
    yield new AssistantTurn(request.model).fail({ kind: "config", retryable: false, message: `model api "${String(api)}" is not supported` });
    return;
  }
  let stream: StreamModelFn;
  try {
    stream = await load(api);
  } catch (err) {
    const message = `could not load the ${api} provider: ${(err as Error)?.message ?? String(err)}`;
    yield new AssistantTurn(request.model).fail({ kind: "unknown", retryable: false, message });
    return;
  }
  let lease: LocalServiceLease | undefined;
  const localService = (request.model as ProviderModel).localService;
  if (localService) {
    try {
      lease = await localModelServices.lease(localService, signal);
    } catch (err) {
      // Another model of the chain may still answer: a failure of the server's start is the provider's, not the request's.
      const kind = signal.aborted ? "aborted" : "network";
      yield new AssistantTurn(request.model).fail({ kind, retryable: false, message: signal.aborted ? "aborted while the local model server started" : (err as Error).message });
      return;
    }
  }
  try {
    yield* stream(request, signal);
  } finally {
    lease?.release();
  }
}

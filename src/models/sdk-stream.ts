import type { ModelRequest, ModelStreamEvent } from "./types.js";
import { AssistantTurn } from "./assistant-turn.js";
import { cachedClient } from "./client-cache.js";
import { withFailureHint, type EndpointShape } from "./failure-hints.js";
import { classifyModelError, secretHeaderValues, type FailurePhase, type SdkErrorClasses } from "./model-errors.js";
import { nodeHttpFetch } from "./node-http-fetch.js";
import { pumpStream, type StreamReader } from "./pump-stream.js";
import { streamDeadlines, StreamWatchdog } from "./stream-watchdog.js";
import { sdkRetries, SDK_DEFAULT_RETRIES, type ProviderModel } from "./types.js";

/** The client options both SDKs take under the same names, set the same way for every provider. */
export interface SharedClientOptions {
  apiKey: string;
  /** The client's default; each request sets its own (`sdkRetries`): failover allows none while it has another key or model. */
  maxRetries: number;
  timeout?: number;
  defaultHeaders?: Record<string, string>;
  /** Failures come back as events; the SDK must not also print them. */
  logLevel: "off";
  fetch: typeof nodeHttpFetch;
}

/** What one wire format adds to the shared frame: its SDK client, its request and its stream reader. */
export interface SdkStreamProvider<Client, Item> {
  /** Tells cached clients apart: each kind makes its own type of client. */
  kind: string;
  errors: SdkErrorClasses;
  createClient(model: ProviderModel, shared: SharedClientOptions): Client;
  /** `maxRetries`: the SDK retries this request may make (docs/models.md). */
  open(client: Client, request: ModelRequest, options: { signal: AbortSignal; maxRetries: number }): Promise<AsyncIterable<Item>>;
  reader(turn: AssistantTurn): StreamReader<Item>;
  /** Where requests go, for the message of a 404 (undefined: the SDK's own default host). */
  endpoint(model: ProviderModel): EndpointShape | undefined;
}

/**
 * One model request through an SDK: the API key check, the cached client, the request, the
 * stream read into our events, and every failure (a missing key, HTTP, network, abort) turned
 * into one final `error` event with secrets redacted. A stalled call (no first event, or no
 * progress between events, within the model's deadlines) ends as a `timeout`. Never throws.
 */
export async function* streamThroughSdk<Client, Item>(provider: SdkStreamProvider<Client, Item>, request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const model = request.model as ProviderModel;
  const turn = new AssistantTurn(model);
  const secrets = [model.apiKey, ...secretHeaderValues(model.headers)];
  let phase: FailurePhase = "request";
  const watchdog = new StreamWatchdog(model, streamDeadlines(model), signal);
  const classify = (err: unknown) => watchdog.expired ?? classifyModelError(err, watchdog.signal, provider.errors, phase, secrets);
  try {
    // Without a key the SDK would go looking on its own (env vars, credential files); the
    // key must come from resolveModel so config and env precedence stay ours.
    if (!model.apiKey) {
      yield turn.fail({ kind: "config", retryable: false, message: `no API key for provider "${model.provider}" (resolve the model first)` });
      return;
    }
    const apiKey = model.apiKey;
    // A `token` profile's client sends the key differently, so it is cached apart.
    const kind = model.authType === "token" ? `${provider.kind}-token` : provider.kind;
    const client = cachedClient({ kind, baseUrl: model.baseUrl, apiKey, timeoutSeconds: model.timeoutSeconds, headers: model.headers }, () =>
      provider.createClient(model, sharedClientOptions(model, apiKey)),
    );
    const stream = await provider.open(client, request, { signal: watchdog.signal, maxRetries: sdkRetries(model) });
    phase = "stream";
    // Keep-alives (SSE comments, Anthropic `ping` events) never become items: only real events are progress.
    const onItem = () => watchdog.progress();
    for await (const event of pumpStream(stream, provider.reader(turn), turn, watchdog.signal, () => classify(watchdog.signal.reason), onItem)) {
      // The call is over once its last event is out, however long the consumer takes with it.
      if (event.type === "done" || event.type === "error") watchdog.dispose();
      yield event;
    }
  } catch (err) {
    const classified = classify(err);
    const endpoint = provider.endpoint(model);
    yield turn.fail(endpoint ? withFailureHint(classified, endpoint, model) : classified);
  } finally {
    watchdog.dispose();
  }
}

function sharedClientOptions(model: ProviderModel, apiKey: string): SharedClientOptions {
  return {
    apiKey,
    maxRetries: SDK_DEFAULT_RETRIES,
    ...(model.timeoutSeconds ? { timeout: model.timeoutSeconds * 1000 } : {}),
    ...(model.headers ? { defaultHeaders: model.headers } : {}),
    logLevel: "off",
    fetch: nodeHttpFetch,
  };
}

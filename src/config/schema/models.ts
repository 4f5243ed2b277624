import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, MAX_TIMER_MS, NonEmptyString, StringList, stringEnum, timeoutSeconds, withExpected } from "./primitives.js";

export const MODEL_APIS = ["openai-completions", "anthropic-messages", "openai-responses", "ollama"] as const;

const nonNegative = () => Type.Number({ minimum: 0 });

/** Price per million tokens; used for usage reports only. */
const ModelCost = Type.Object({
  input: Type.Optional(nonNegative()),
  output: Type.Optional(nonNegative()),
  cacheRead: Type.Optional(nonNegative()),
  cacheWrite: Type.Optional(nonNegative()),
});

const ProviderModel = Type.Object({
  id: NonEmptyString,
  name: Type.Optional(Type.String()),
  reasoning: Type.Optional(Type.Boolean()),
  input: Type.Optional(Type.Array(stringEnum(["text", "image"]))),
  cost: Type.Optional(ModelCost),
  contextWindow: Type.Optional(integer(1)),
  /** The active input budget for this model, below its native contextWindow (compaction and Ollama's num_ctx follow it). */
  contextTokens: Type.Optional(integer(1)),
  maxTokens: Type.Optional(integer(1)),
  /** Request settings for this model (temperature, top_p, Ollama's num_ctx, …); docs/models.md says which each api sends. */
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const AbsolutePath = withExpected(Type.String({ pattern: "^/" }), "an absolute path (it runs without a shell or a PATH lookup)");

/**
 * `models.providers.<id>.localService`: a server started on demand before this provider's model
 * and embedding requests, when its health URL does not answer (docs/models.md, "Local model
 * services").
 */
const LocalService = Type.Object({
  command: AbsolutePath,
  args: Type.Optional(StringList),
  cwd: Type.Optional(withExpected(Type.String({ pattern: "^/" }), "an absolute path")),
  /** Merged over the gateway's environment for the server. */
  env: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
  /** Ready once a GET here answers 2xx; default `<baseUrl>/models`. */
  healthUrl: Type.Optional(ApiBaseUrl),
  readyTimeoutMs: Type.Optional(integer(1, MAX_TIMER_MS)),
  /** Stop a server the gateway started after this long without a request; 0 (default) keeps it until the gateway stops. */
  idleStopMs: Type.Optional(integer(0, MAX_TIMER_MS)),
});

const ModelProvider = Type.Object({
  baseUrl: Type.Optional(ApiBaseUrl),
  apiKey: Type.Optional(Type.String()),
  api: Type.Optional(stringEnum(MODEL_APIS)),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  timeoutSeconds: Type.Optional(timeoutSeconds()),
  firstByteTimeoutSeconds: Type.Optional(timeoutSeconds()),
  idleTimeoutSeconds: Type.Optional(timeoutSeconds()),
  models: Type.Optional(Type.Array(ProviderModel)),
  localService: Type.Optional(LocalService),
});

export const ModelsSchema = Type.Object({
  mode: Type.Optional(stringEnum(["merge", "replace"])),
  providers: Type.Optional(Type.Record(Type.String(), ModelProvider)),
});

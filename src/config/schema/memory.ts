import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, NonEmptyString, StringList } from "./primitives.js";

/**
 * `memory.search`: the per-agent memory index and its hybrid retrieval (docs/memory.md). The
 * older spelling `agents.defaults.memorySearch` is moved here before validation (legacy-keys.ts).
 */
export const MemorySearchSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /** `none`: keyword (FTS) ranking only. Any other id: a provider with an OpenAI-compatible `/embeddings` (an Ollama provider: its server's `/v1/embeddings`). */
  provider: Type.Optional(NonEmptyString),
  model: Type.Optional(NonEmptyString),
  remote: Type.Optional(
    Type.Object({
      baseUrl: Type.Optional(ApiBaseUrl),
      apiKey: Type.Optional(NonEmptyString),
      batchSize: Type.Optional(integer(1, 2048)),
    }),
  ),
  /** `memory` (always) and the opt-in `sessions`: the agent's own transcripts. */
  sources: Type.Optional(Type.Array(Type.Union([Type.Literal("memory"), Type.Literal("sessions")]), { uniqueItems: true })),
  extraPaths: Type.Optional(StringList),
  chunking: Type.Optional(
    Type.Object({
      tokens: Type.Optional(integer(50, 4000)),
      overlap: Type.Optional(integer(0, 2000)),
    }),
  ),
  sync: Type.Optional(
    Type.Object({
      watch: Type.Optional(Type.Boolean()),
      watchDebounceMs: Type.Optional(integer(0, 60_000)),
    }),
  ),
  query: Type.Optional(
    Type.Object({
      maxResults: Type.Optional(integer(1, 50)),
      minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      hybrid: Type.Optional(
        Type.Object({
          vectorWeight: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          textWeight: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          candidateMultiplier: Type.Optional(integer(1, 20)),
        }),
      ),
      mmr: Type.Optional(
        Type.Object({
          enabled: Type.Optional(Type.Boolean()),
          lambda: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        }),
      ),
      temporalDecay: Type.Optional(
        Type.Object({
          enabled: Type.Optional(Type.Boolean()),
          halfLifeDays: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        }),
      ),
    }),
  ),
});

export const MemorySchema = Type.Object({
  search: Type.Optional(MemorySearchSchema),
});

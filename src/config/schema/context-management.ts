import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, StringList, stringEnum, wholeTimeoutSeconds, withExpected } from "./primitives.js";

/** `agents.defaults.compaction`: summarizing old turns when a session nears its model's window. */
export const Compaction = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /** Tokens kept free below the window; compaction starts when the context passes window − reserve (0: no floor). */
  reserveTokensFloor: Type.Optional(integer(0)),
  /** Newest tokens of conversation kept word for word (at least the last 3 turns). */
  keepRecentTokens: Type.Optional(integer(1)),
  /** `provider/model` that writes the summaries (default: the session's model). */
  model: Type.Optional(NonEmptyString),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
  /** Tell the chat when its history was compacted. */
  notifyUser: Type.Optional(Type.Boolean()),
  /** AGENTS.md H2/H3 sections carried in front of the session's next message after a compaction. */
  postCompactionSections: Type.Optional(StringList),
  memoryFlush: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      /** The flush runs this many tokens before compaction would. */
      softThresholdTokens: Type.Optional(integer(0)),
      /** The flush's own model (`provider/model`), strict: no fallback chain. Default: the session's. */
      model: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
});

const Duration = withExpected(Type.String({ pattern: "^[0-9]+(ms|s|m|h)$" }), 'a duration such as "30s", "5m" or "1h"');

/** `agents.defaults.contextPruning`: trimming old tool results in the request only (never the transcript). */
export const ContextPruning = Type.Object({
  mode: Type.Optional(stringEnum(["off", "cache-ttl"])),
  ttl: Type.Optional(Duration),
  tools: Type.Optional(Type.Object({ allow: Type.Optional(StringList), deny: Type.Optional(StringList) })),
  hardClear: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), placeholder: Type.Optional(NonEmptyString) })),
});

/** `agents.defaults.contextWindowGuard`: the window sizes below which runs warn or are refused. */
export const ContextWindowGuard = Type.Object({
  warnBelowTokens: Type.Optional(integer(1)),
  hardMinTokens: Type.Optional(integer(1)),
});

import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, NonEmptyString, wholeTimeoutSeconds } from "./primitives.js";

/**
 * `plugins.entries.xai.config.webSearch`: the xAI key the grok web_search provider, x_search and
 * code_execution share, and the Responses API base URL (`/responses` is appended). http:// only
 * to a loopback or private host.
 */
export const XaiWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  baseUrl: Type.Optional(ApiBaseUrl),
});

/**
 * `plugins.entries.xai.config.xSearch`: the x_search tool. `enabled` omitted offers it only to a
 * turn whose model is an `xai` one; true offers it to every model; false never. An xAI key is
 * always needed.
 */
export const XaiXSearchConfig = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  model: Type.Optional(NonEmptyString),
  /** Overrides webSearch.baseUrl for x_search. */
  baseUrl: Type.Optional(ApiBaseUrl),
  /** Give the answer's inline citations (their character offsets and URLs) as well. */
  inlineCitations: Type.Optional(Type.Boolean()),
  /** The most internal tool turns xAI may take (its own limit when unset). */
  maxTurns: Type.Optional(integer(1, 100)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
  /** 0: no cache (neither read nor written). */
  cacheTtlMinutes: Type.Optional(integer(0, 10_080)),
});

/** `plugins.entries.xai.config.codeExecution`: the code_execution tool (offered as x_search is). */
export const XaiCodeExecutionConfig = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  model: Type.Optional(NonEmptyString),
  maxTurns: Type.Optional(integer(1, 100)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
});

export const XaiPluginConfig = Type.Object({
  webSearch: Type.Optional(XaiWebSearchConfig),
  xSearch: Type.Optional(XaiXSearchConfig),
  codeExecution: Type.Optional(XaiCodeExecutionConfig),
});

import type { ResolvedAuth } from "../../auth/resolve-auth.js";
import type { ProxySettings } from "../../ingress-attribution.js";
import type { AuthRateLimiter } from "../../auth/rate-limiter.js";
import type { LoadedImage } from "./image-loader.js";
import type { MediaLimits } from "./request-media.js";
import type { ClientToolCall } from "../../../agents/client-tools.js";
import type { ClientTools } from "./client-tool-fields.js";
import type { ClientPresence } from "./client-abort.js";

/** An agent as the `/v1` surface sees it: ids are already normalised (lower case). */
export interface OpenAiAgentInfo {
  id: string;
  name?: string;
  isDefault: boolean;
}

/**
 * What the OpenAI-compatible routes need from the gateway. Everything that can change on hot
 * reload is a function, read once per request.
 */
export interface OpenAiRouteDeps {
  /** `gateway.http.endpoints.chatCompletions.enabled`; off by default. */
  enabled: () => boolean;
  /** Bearer must equal the token (token mode) or the password (password mode); mode `none` is open. */
  auth: () => ResolvedAuth;
  /** Shared with the WebSocket handshake: wrong bearers count, a lockout answers 429 + Retry-After. */
  rateLimiter: AuthRateLimiter;
  /** Whose forwarding headers name the client (read per request). */
  proxies: () => ProxySettings;
  agents: () => OpenAiAgentInfo[];
  /** Why `x-openclaw-model` cannot be used (unknown provider or model), or undefined when it can. */
  modelProblem: (ref: string) => string | undefined;
  /** `gateway.http.endpoints.<endpoint>`'s images, files and maxUrlParts, defaults filled: where a request's media may come from. */
  mediaLimits: (endpoint: "chatCompletions" | "responses") => MediaLimits;
  runTurn(input: ChatTurnInput): Promise<ChatTurnResult>;
  /**
   * `POST /v1/embeddings`: vectors for `texts` from the embedding setup (`model`: a `provider/model`
   * from `x-openclaw-model`), with the input tokens the provider reported. Throws
   * OpenAiRequestError for what the client or the operator must fix.
   */
  embed(input: { texts: string[]; model?: string; signal: AbortSignal }): Promise<{ vectors: Float32Array[]; promptTokens?: number }>;
  /** Where `/v1/responses` keeps which session each response id continued (`<state>/http/response-sessions.jsonl`). */
  responseSessionsFile: string;
  /** Request body cap for `POST /v1/chat/completions`; defaults to 20 MiB (long histories). */
  bodyLimitBytes?: number;
  /** A thrown failure the operator can fix (a state write that failed), told as its cause; undefined keeps it `internal error`. */
  explainFailure?: (err: unknown) => string | undefined;
  /** Where unexpected failures go (the client sees `internal error`, or what `explainFailure` says). */
  logger?: { warn(obj: object, msg: string): void };
}

export interface ChatTurnInput {
  agentId: string;
  /**
   * `x-openclaw-session-key` verbatim, else `agent:<agentId>:openai-user:<user>` when the request
   * names a `user`, else a fresh `agent:<agentId>:openai:<uuid>` (stateless; see docs/http-api.md,
   * "Sessions").
   */
  sessionKey: string;
  /** The last user message's text. */
  message: string;
  /** Its images, fetched or decoded and checked against the endpoint's `images` limits. */
  images?: LoadedImage[];
  /** `system` / `developer` messages from the request, joined by blank lines. */
  extraSystemPrompt?: string;
  /**
   * A chat completion with neither a session key nor a `user`: its session is removed once the
   * turn is over, so the gateway keeps nothing of it (the Responses API keeps its sessions for
   * `previous_response_id`).
   */
  stateless?: boolean;
  /**
   * Earlier request messages, only for stateless requests: a stateful session already holds its
   * own transcript, so replaying the client's copy would duplicate it.
   */
  history?: { role: "user" | "assistant"; text: string }[];
  /** `x-openclaw-model` backend model override (`provider/model`). */
  model?: string;
  /**
   * The request's sampling fields and token cap as model params for its turn (`temperature`,
   * `top_p`, `frequency_penalty`, `presence_penalty`, `seed`, `stop`, `max_tokens`): each model
   * takes the ones its API has, as it takes configured `params`.
   */
  modelParams?: Record<string, unknown>;
  /** The request's function tools, which the client runs itself, and whether it requires a call. */
  clientTools?: ClientTools;
  /** Tells when the client disconnects before the answer is complete. */
  client: ClientPresence;
  /** Assistant text as it streams. */
  onDelta: (text: string) => void;
}

export interface ChatTurnResult {
  /** The reply; with `toolCalls`, the text the agent wrote before calling them. */
  text: string;
  /** Client tool calls the run ended with: the client runs them and sends their results back. */
  toolCalls?: ClientToolCall[];
  usage: { input: number; output: number };
  stopReason: string;
  error?: { kind: string; message: string };
}

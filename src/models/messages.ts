/**
 * The message contracts every layer shares: what a transcript line holds and what a model sees.
 * They sit at the models layer, the lowest one that needs them; the agent runtime, the session
 * store and the conversation core read them from here.
 */

// ── Content blocks (the transcript format of OpenClaw's session files v3) ─────────────────────
export interface TextBlock {
  type: "text";
  text: string;
}
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
}
export interface ImageBlock {
  type: "image";
  data: string;
  mimeType: string;
}
/** A complete tool call: arguments already parsed from the streamed JSON. */
export interface ToolCallBlock {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Why the model's arguments could not be read (not JSON, not an object): the call then answers with this error instead of running. */
  argumentsError?: string;
}

// ── Messages ──────────────────────────────────────────────────────────────────────────────────
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Why an assistant turn (or a whole run) ended. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted" | "timeout" | "loop";

export interface UserMessage {
  role: "user";
  content: string | (TextBlock | ImageBlock)[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: StopReason;
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextBlock | ImageBlock)[];
  isError: boolean;
  /** Structured data for UIs and logs; never sent to the model. */
  details?: unknown;
  timestamp: number;
}

/** The only messages a model ever sees. */
export type ModelMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * A transcript line's message. It may carry any extra fields (ids, provenance, internal events
 * with other roles); `toModelMessages` keeps only user/assistant/toolResult and strips extras.
 */
export type TranscriptMessage = (ModelMessage & Record<string, unknown>) | { role: string; [key: string]: unknown };

/** What a turn is given as history: transcript messages, or their model projections (a gateway's cached window). */
export type HistoryMessage = TranscriptMessage | ModelMessage;

import type { ModelMessage } from "./messages.js";
import type { ModelRequest, ToolSpec } from "./types.js";
import { toolDefinition, toolImagesMessage, toWire } from "./openai-messages.js";
import { ModelProjection } from "../models/model-projection.js";
import { wireSettings } from "./model-settings.js";
import { LRUCache } from "lru-cache";

/**
 * The Chat Completions body for `request`, as bytes. A conversation resends its whole history
 * every turn, but a message never changes once written, so each message's JSON (and each
 * tool's) is built once per message object and a turn only writes the pieces, straight into a
 * scratch buffer reused from request to request and copied out once. Serializing the full params
 * object per request was the largest single allocation of a gateway turn.
 *
 * Every non-ASCII character is written as a `\u` escape (valid JSON for the same text), so the
 * pieces are one-byte strings: one "—" in the system prompt would otherwise make V8 store the
 * whole body, history included, at two bytes per character.
 *
 * The real OpenAI endpoint wants `max_completion_tokens` (its reasoning models reject
 * `max_tokens`); OpenAI-compatible servers (vLLM, Ollama, LM Studio, gateways) mostly only know
 * `max_tokens`. `stream_options.include_usage` is what makes the stream carry token counts.
 */
export function openAIRequestBody(request: ModelRequest): Buffer {
  const out = new ScratchWriter();
  writeRequest(request, out);
  return out.take();
}

/** The body's JSON text in order, every piece ASCII (so one byte per character). */
function writeRequest(request: ModelRequest, out: ScratchWriter): void {
  const { model } = request;
  const imagesAllowed = model.input.includes("image");
  out.write(`{"model":${asciiJson(model.id)},"messages":[`);
  if (request.systemPrompt) out.write(systemJson(request.systemPrompt));
  writeMessages(request.messages, imagesAllowed, request.systemPrompt ? 1 : 0, out);

  // Thinking level and per-model params, when the turn has any (most have none).
  const settings = request.thinking || request.params ? wireSettings(request) : undefined;
  const maxTokens = settings?.maxTokens ?? request.maxTokens ?? model.maxTokens;
  const maxTokensKey = model.provider === "openai" ? "max_completion_tokens" : "max_tokens";
  // `params.extra_body` wins over a generated field of the same name: that field is not written.
  const extra = settings?.extraBody;
  const own = (field: string) => extra === undefined || !(field in extra);
  let tail = `],"stream":true,"stream_options":{"include_usage":true}`;
  if (maxTokens !== undefined && own(maxTokensKey)) tail += `,"${maxTokensKey}":${JSON.stringify(maxTokens)}`;
  if (request.temperature !== undefined && settings?.fields.temperature === undefined && own("temperature")) tail += `,"temperature":${JSON.stringify(request.temperature)}`;
  for (const [field, value] of Object.entries(settings?.fields ?? {})) if (own(field)) tail += `,${asciiJson(field)}:${asciiJson(value)}`;
  for (const [field, value] of Object.entries(extra ?? {})) tail += `,${asciiJson(field)}:${asciiJson(value)}`;
  if (request.tools.length === 0) {
    out.write(`${tail}}`);
    return;
  }
  // Each tool's cached JSON goes straight into the buffer: joined first, the tool list (tens of
  // KB with the default tools) was a fresh string on every request.
  out.write(`${tail},"tools":[`);
  for (let i = 0; i < request.tools.length; i += 1) {
    if (i > 0) out.write(",");
    out.write(toolJson(request.tools[i]!, model.provider));
  }
  out.write("]}");
}

/**
 * The messages of a conversation's previous request, as written: a turn resends the same message
 * objects (the conversation window keeps its projections) plus a few new ones, so the bytes of
 * the longest common prefix are copied in one piece and only the rest is written message by
 * message. Keyed by the first message, so it lives as long as that conversation's window does.
 */
interface WrittenMessages {
  messages: readonly ModelMessage[];
  imagesAllowed: boolean;
  /** Pieces already in the array before the messages (the system message): the first message's comma depends on it. */
  before: number;
  /** The JSON of `messages`, comma-separated, as written. */
  bytes: Buffer;
  /** `ends[i]`: where message i's piece (with the commas before it) ends in `bytes`. */
  ends: Int32Array;
  /** `written[i]`: how many pieces are in the array once message i is written (an empty message adds none). */
  written: Int32Array;
}

const previousRequests = new WeakMap<ModelMessage, WrittenMessages>();

/** The conversation's messages after the `before` pieces already in the array, reusing the previous request's prefix. */
function writeMessages(messages: readonly ModelMessage[], imagesAllowed: boolean, before: number, out: ScratchWriter): void {
  const start = out.offset;
  const ends = new Int32Array(messages.length);
  const written = new Int32Array(messages.length);
  let count = before;
  let from = 0;
  const previous = messages.length > 0 ? previousRequests.get(messages[0]!) : undefined;
  if (previous && previous.imagesAllowed === imagesAllowed && previous.before === before) {
    const limit = Math.min(previous.messages.length, messages.length);
    while (from < limit && previous.messages[from] === messages[from]) from += 1;
    if (from > 0) {
      out.writeBytes(previous.bytes, previous.ends[from - 1]!);
      ends.set(previous.ends.subarray(0, from));
      written.set(previous.written.subarray(0, from));
      count = previous.written[from - 1]!;
    }
  }
  let toolImages: string[] = [];
  let cacheable = true;
  const writePiece = (json: string) => {
    if (count++ > 0) out.write(",");
    out.write(json);
  };
  for (let i = from; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role !== "toolResult" && toolImages.length > 0) {
      writePiece(toolImagesJson(toolImages));
      toolImages = [];
    }
    const piece = wirePiece(message, imagesAllowed);
    if (typeof piece === "string") writePiece(piece);
    else if (piece === PLAIN_USER || piece === PLAIN_ASSISTANT) {
      writePiece(piece === PLAIN_USER ? '{"role":"user","content":"' : '{"role":"assistant","content":"');
      out.write(plainText(message)!);
      out.write('"}');
    } else {
      if (piece.json !== undefined) writePiece(piece.json);
      if (piece.toolImages.length > 0) {
        // Tool images go after the whole run of tool results: no message boundary to reuse here.
        cacheable = false;
        toolImages.push(...piece.toolImages);
      }
    }
    ends[i] = out.offset - start;
    written[i] = count;
  }
  if (toolImages.length > 0) writePiece(toolImagesJson(toolImages));
  if (messages.length === 0) return;
  if (cacheable)
    previousRequests.set(messages[0]!, { messages: messages.slice(), imagesAllowed, before, bytes: out.copy(start, start + ends[messages.length - 1]!), ends, written });
  else previousRequests.delete(messages[0]!);
}

/** Scratch space shared by every request (bodies are built synchronously, one at a time). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
/** A body bigger than this (huge tool results) does not keep its scratch space afterwards. */
const MAX_KEPT_SCRATCH = 4 * 1024 * 1024;

class ScratchWriter {
  private length = 0;

  get offset(): number {
    return this.length;
  }

  /** Appends an ASCII piece. */
  write(piece: string): void {
    this.reserve(piece.length);
    this.length += scratch.write(piece, this.length, "latin1");
  }

  /** Appends the first `length` bytes of `bytes`. */
  writeBytes(bytes: Buffer, length: number): void {
    this.reserve(length);
    this.length += bytes.copy(scratch, this.length, 0, length);
  }

  /** A copy of the bytes written between `start` and `end`. */
  copy(start: number, end: number): Buffer {
    return Buffer.from(scratch.subarray(start, end));
  }

  private reserve(extra: number): void {
    if (this.length + extra <= scratch.length) return;
    let size = scratch.length * 2;
    while (size < this.length + extra) size *= 2;
    const bigger = Buffer.allocUnsafeSlow(size);
    scratch.copy(bigger, 0, 0, this.length);
    scratch = bigger;
  }

  /** The bytes written, as their own buffer. */
  take(): Buffer {
    const body = Buffer.allocUnsafeSlow(this.length);
    scratch.copy(body, 0, 0, this.length);
    if (scratch.length > MAX_KEPT_SCRATCH) scratch = Buffer.allocUnsafeSlow(64 * 1024);
    return body;
  }
}

interface WirePiece {
  /** The message's JSON; undefined when the message would be empty on the wire. */
  json?: string;
  /** JSON of the images a tool result returned, sent after its run of tool messages. */
  toolImages: readonly string[];
}

/**
 * Cached per message for as long as the message lives (a session's history stays in memory):
 * in the message itself when it is a projection (ModelProjection's memo slot), otherwise in a
 * weak table. The common case — no tool images — is kept as the bare JSON string.
 */
type CachedPiece = string | WirePiece;
const IMAGES_ALLOWED = { name: "openai wire json, images allowed" };
const IMAGES_REFUSED = { name: "openai wire json, images refused" };
const otherMessages = { allowed: new WeakMap<ModelMessage, CachedPiece>(), refused: new WeakMap<ModelMessage, CachedPiece>() };
const NO_IMAGES: readonly string[] = Object.freeze([]);
const EMPTY_PIECE: WirePiece = Object.freeze({ toolImages: NO_IMAGES });

/**
 * A user or assistant message whose whole wire form is its text, when that text is printable
 * ASCII without `"` or `\\` (short chat lines mostly are): its JSON is the text between a fixed
 * prefix and suffix, so the message's own string is written and no copy of it is kept.
 */
const PLAIN_USER: WirePiece = Object.freeze({ toolImages: NO_IMAGES });
const PLAIN_ASSISTANT: WirePiece = Object.freeze({ toolImages: NO_IMAGES });
const NEEDS_NO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/** The text a plain message's wire form carries, or undefined when it has another shape. */
function plainText(message: ModelMessage): string | undefined {
  if (message.role === "user") return typeof message.content === "string" ? message.content : undefined;
  if (message.role !== "assistant" || message.content.length !== 1) return undefined;
  const block = message.content[0]!;
  return block.type === "text" ? block.text : undefined;
}

/** The message's JSON alone (the common case), or with the tool images it brings. */
function wirePiece(message: ModelMessage, imagesAllowed: boolean): CachedPiece {
  const tag = imagesAllowed ? IMAGES_ALLOWED : IMAGES_REFUSED;
  const cache = imagesAllowed ? otherMessages.allowed : otherMessages.refused;
  let cached = (ModelProjection.memo(message, tag) ?? cache.get(message)) as CachedPiece | undefined;
  if (cached === undefined) {
    const text = plainText(message);
    if (text !== undefined && NEEDS_NO_ESCAPE.test(text)) {
      cached = message.role === "user" ? PLAIN_USER : PLAIN_ASSISTANT;
      if (!ModelProjection.remember(message, tag, cached)) cache.set(message, cached);
      return cached;
    }
    const wire = toWire(message, imagesAllowed);
    const json = wire.message ? asciiJson(wire.message) : undefined;
    if (wire.toolImages.length > 0) cached = { json, toolImages: wire.toolImages.map((part) => asciiJson(part)) };
    else cached = json ?? EMPTY_PIECE;
    if (!ModelProjection.remember(message, tag, cached)) cache.set(message, cached);
  }
  return cached;
}

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

/** JSON.stringify with non-ASCII characters escaped; surrogate pairs become two escapes, as JSON allows. */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}

/** The intro part of the tool-images message, as JSON, without the images. */
const TOOL_IMAGES_PREFIX = (() => {
  const json = asciiJson(toolImagesMessage([]));
  return json.slice(0, json.length - "]}".length);
})();

function toolImagesJson(parts: string[]): string {
  return `${TOOL_IMAGES_PREFIX},${parts.join(",")}]}`;
}

// The system prompt changes only when its clock line does; remember the last few.
const systemJsonCache = new LRUCache<string, string>({ max: 8 });

function systemJson(prompt: string): string {
  let json = systemJsonCache.get(prompt);
  if (json === undefined) {
    json = asciiJson({ role: "system", content: prompt });
    systemJsonCache.set(prompt, json);
  }
  return json;
}

const toolJsonCache = new WeakMap<ToolSpec, Map<string, string>>();

function toolJson(tool: ToolSpec, provider: string): string {
  let byProvider = toolJsonCache.get(tool);
  if (!byProvider) toolJsonCache.set(tool, (byProvider = new Map()));
  let json = byProvider.get(provider);
  if (json === undefined) {
    json = asciiJson(toolDefinition(tool, provider));
    byProvider.set(provider, json);
  }
  return json;
}

import type { FastifyReply, FastifyRequest } from "fastify";
import { resolveAgentId } from "./agent-target.js";
import { abortWhenClientLeaves } from "./client-abort.js";
import { OpenAiRequestError, sendRequestError } from "./openai-errors.js";
import { isRecord, optionalString } from "./request-fields.js";
import { readRoutingHeaders } from "./routing-headers.js";
import type { OpenAiRouteDeps } from "./types.js";

/** The most inputs one request may carry, as OpenAI allows. */
const MAX_INPUTS = 2048;

interface EmbeddingsRequest {
  model?: string;
  texts: string[];
  encoding: "float" | "base64";
}

/**
 * `POST /v1/embeddings`: `input` (a string or a list of strings) embedded by the embedding model
 * memory search uses (`memory.search`), or by the `provider/model` `x-openclaw-model` names. The
 * `model` field picks an agent as it does for chat completions; the answer is OpenAI's list of
 * embeddings, as float arrays or (the SDKs' default) base64 of little-endian float32.
 */
export function embeddingsHandler(deps: OpenAiRouteDeps) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    try {
      const parsed = parseEmbeddingsRequest(req.body);
      const headers = readRoutingHeaders(req.headers);
      resolveAgentId(parsed.model, headers.agentId, deps.agents());
      const signal = abortWhenClientLeaves(reply.raw);
      const { vectors, promptTokens } = await deps.embed({ texts: parsed.texts, ...(headers.model ? { model: headers.model } : {}), signal });
      return {
        object: "list",
        data: vectors.map((vector, index) => ({ object: "embedding", index, embedding: parsed.encoding === "base64" ? base64Of(vector) : Array.from(vector) })),
        model: parsed.model ?? "openclaw",
        ...(promptTokens !== undefined ? { usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } } : {}),
      };
    } catch (err) {
      if (err instanceof OpenAiRequestError) return sendRequestError(reply, err);
      throw err;
    }
  };
}

function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  if (!isRecord(body)) throw new OpenAiRequestError("Request body must be a JSON object.");
  const model = optionalString(body, "model");
  const encoding = body.encoding_format ?? "float";
  if (encoding !== "float" && encoding !== "base64") throw new OpenAiRequestError("`encoding_format` must be 'float' or 'base64'.", "encoding_format");
  if (body.dimensions !== undefined && body.dimensions !== null) {
    throw new OpenAiRequestError("`dimensions` is not supported: vectors come at the embedding model's own size.", "dimensions");
  }
  const input = body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : undefined;
  if (!texts || texts.length === 0) throw new OpenAiRequestError("`input` must be a non-empty string or a non-empty array of strings.", "input");
  if (texts.length > MAX_INPUTS) throw new OpenAiRequestError(`\`input\` may hold at most ${MAX_INPUTS} strings.`, "input");
  texts.forEach((text, i) => {
    const param = typeof input === "string" ? "input" : `input[${i}]`;
    if (typeof text === "number" || Array.isArray(text)) throw new OpenAiRequestError(`${param}: token arrays are not supported; send the text.`, param);
    if (typeof text !== "string") throw new OpenAiRequestError(`${param} must be a string.`, param);
    if (text === "") throw new OpenAiRequestError(`${param} must not be empty.`, param);
  });
  return { ...(model ? { model } : {}), texts: texts as string[], encoding };
}

function base64Of(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

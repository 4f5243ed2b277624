import type OpenAI from "openai";
import type { ModelMessage, ModelRequest } from "../../../src/agents/types.js";
import { toolDefinition, toolImagesMessage, toWire, type UserPart, type WireMessage } from "../../../src/models/openai-messages.js";

/**
 * The Chat Completions params as a plain object, built the straightforward way: the reference
 * openAIRequestBody (which writes cached per-message JSON into a buffer) must equal as JSON.
 */
export function toOpenAIParams(request: ModelRequest): OpenAI.ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const maxTokens = request.maxTokens ?? model.maxTokens;
  const params: OpenAI.ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages: toOpenAIMessages(request.systemPrompt, request.messages, model.input.includes("image")),
    stream: true,
    stream_options: { include_usage: true },
    ...(model.provider === "openai" ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
  };
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.tools.length > 0) params.tools = request.tools.map((tool) => toolDefinition(tool, model.provider));
  return params;
}

function toOpenAIMessages(systemPrompt: string, messages: readonly ModelMessage[], imagesAllowed: boolean): WireMessage[] {
  const wire: WireMessage[] = systemPrompt ? [{ role: "system", content: systemPrompt }] : [];
  let toolImages: UserPart[] = [];
  for (const message of messages) {
    if (message.role !== "toolResult" && toolImages.length > 0) {
      wire.push(toolImagesMessage(toolImages));
      toolImages = [];
    }
    const converted = toWire(message, imagesAllowed);
    if (converted.message) wire.push(converted.message);
    toolImages.push(...converted.toolImages);
  }
  if (toolImages.length > 0) wire.push(toolImagesMessage(toolImages));
  return wire;
}

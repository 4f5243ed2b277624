import type OpenAI from "openai";
import type { ModelMessage } from "./messages.js";
import type { ModelRequest } from "./types.js";
import { wireSettings } from "./model-settings.js";
import { normalizeToolSchema } from "./tool-schema.js";

type InputItem = OpenAI.Responses.ResponseInputItem;

/**
 * Our request → a Responses API body (`POST /responses`, streaming). The system prompt goes as
 * `instructions`; user messages as `input_text` / `input_image` parts; an assistant's text as an
 * assistant message and each of its tool calls as a `function_call` item; a tool result as a
 * `function_call_output` (text only: its images follow as a user message). Thinking is not sent
 * back (Responses replays reasoning only by server-side id, which a transcript does not keep).
 * `store: false`: the conversation lives in our transcript, not on the provider.
 */
export function toResponsesBody(request: ModelRequest): OpenAI.Responses.ResponseCreateParamsStreaming {
  const { model } = request;
  const settings = wireSettings(request);
  const body: OpenAI.Responses.ResponseCreateParamsStreaming = {
    model: model.id,
    input: toResponsesInput(request.messages, model.input.includes("image")),
    stream: true,
    store: false,
    max_output_tokens: settings.maxTokens ?? request.maxTokens ?? model.maxTokens,
    ...settings.fields,
  };
  if (request.systemPrompt) body.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description,
      parameters: normalizeToolSchema(tool.parameters, "openai-completions", model.provider),
      strict: false,
    }));
  }
  return body;
}

export function toResponsesInput(messages: readonly ModelMessage[], imagesAllowed: boolean): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const content =
        typeof message.content === "string"
          ? message.content
            ? [{ type: "input_text" as const, text: message.content }]
            : []
          : message.content.map((b) => (b.type === "text" ? { type: "input_text" as const, text: b.text } : imagePart(b.data, b.mimeType, imagesAllowed)));
      if (content.length > 0) items.push({ role: "user", content } as InputItem);
      continue;
    }
    if (message.role === "assistant") {
      const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      if (text) items.push({ role: "assistant", content: text } as InputItem);
      for (const block of message.content) {
        if (block.type === "toolCall") items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.arguments) });
      }
      continue;
    }
    const texts = message.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    const images = message.content.flatMap((b) => (b.type === "image" ? [imagePart(b.data, b.mimeType, imagesAllowed)] : []));
    items.push({ type: "function_call_output", call_id: message.toolCallId, output: texts.join("\n") || "(no output)" });
    if (images.length > 0) items.push({ role: "user", content: [{ type: "input_text", text: "Images returned by the tool above:" }, ...images] } as InputItem);
  }
  return items;
}

function imagePart(data: string, mimeType: string, imagesAllowed: boolean) {
  if (!imagesAllowed) return { type: "input_text" as const, text: `[image omitted: ${mimeType}]` };
  return { type: "input_image" as const, image_url: `data:${mimeType};base64,${data}`, detail: "auto" as const };
}

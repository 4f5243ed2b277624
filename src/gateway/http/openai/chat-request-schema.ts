import { Type, type Static, type TSchema } from "@sinclair/typebox";

/**
 * The shape of a `POST /v1/chat/completions` body, checked by fastify before the handler runs
 * (see openai-body-validator.ts). Only what the gateway acts on is constrained; other fields
 * OpenAI clients send (`logprobs`, `metadata`, …) pass. Sampling fields are range-checked like
 * upstream, so a client learns about its own typo. Each field carries the OpenAI-style message
 * a client sees when it fails; `{param}` becomes the field's path (`messages[0].role`).
 */
const nullable = <T extends TSchema>(schema: T, errorMessage: string) => Type.Optional(Type.Union([schema, Type.Null()], { errorMessage }));
const between = (name: string, minimum: number, maximum: number) => nullable(Type.Number({ minimum, maximum }), `\`${name}\` must be a number between ${minimum} and ${maximum}.`);

export const CHAT_ROLES = ["system", "developer", "user", "assistant", "tool", "function"] as const;

const ContentPart = Type.Object(
  {
    type: Type.String({ errorMessage: "{parent} must be an object with a string 'type'." }),
    text: Type.Optional(Type.Unknown()),
  },
  { errorMessage: "{param} must be an object with a string 'type'." },
);

const Message = Type.Object(
  {
    role: Type.Union(
      CHAT_ROLES.map((role) => Type.Literal(role)),
      { errorMessage: `{param} must be one of ${CHAT_ROLES.join(", ")}.` },
    ),
    content: Type.Optional(Type.Union([Type.String(), Type.Array(ContentPart), Type.Null()], { errorMessage: "{param} must be a string or an array of content parts." })),
    name: Type.Optional(Type.Unknown()),
    tool_call_id: Type.Optional(Type.Unknown()),
  },
  { errorMessage: "{param} must be an object." },
);

export const ChatCompletionRequest = Type.Object(
  {
    messages: Type.Array(Message, { minItems: 1, errorMessage: "`messages` must be a non-empty array." }),
    model: nullable(Type.String(), "`model` must be a string."),
    user: nullable(Type.String(), "`user` must be a string."),
    stream: nullable(Type.Boolean(), "`stream` must be a boolean."),
    stream_options: nullable(Type.Object({ include_usage: nullable(Type.Boolean(), "`stream_options.include_usage` must be a boolean.") }), "`stream_options` must be an object."),
    temperature: between("temperature", 0, 2),
    top_p: between("top_p", 0, 1),
    frequency_penalty: between("frequency_penalty", -2, 2),
    presence_penalty: between("presence_penalty", -2, 2),
    max_tokens: nullable(Type.Integer({ minimum: 1 }), "`max_tokens` must be an integer of at least 1."),
    max_completion_tokens: nullable(Type.Integer({ minimum: 1 }), "`max_completion_tokens` must be an integer of at least 1."),
    seed: nullable(Type.Integer(), "`seed` must be an integer."),
    n: nullable(Type.Literal(1), "Only `n: 1` is supported."),
    stop: nullable(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 })]), "`stop` must be a string or an array of at most 4 strings."),
    // Checked by client-tool-fields.ts, whose messages name the entry.
    tools: Type.Optional(Type.Unknown()),
    tool_choice: Type.Optional(Type.Unknown()),
  },
  { errorMessage: "Request body must be a JSON object." },
);

export type ChatCompletionBody = Static<typeof ChatCompletionRequest>;
export type ChatMessage = ChatCompletionBody["messages"][number];

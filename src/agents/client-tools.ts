import type { TSchema } from "@sinclair/typebox";
import { normalizeToolSchema } from "../models/index.js";
import type { AgentTool, ModelApi, ToolSpec } from "./types.js";

/** A function tool the caller of a turn runs itself (an HTTP API request's `tools`). */
export interface ClientToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments; an object without properties when absent. */
  parameters?: Record<string, unknown>;
}

/** A call of a client tool the model made: the run ends with it, and it goes back to the caller. */
export interface ClientToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * What a handed-off call's result says in the transcript until the caller's result arrives (as
 * the next message): the session stays well formed, and the model reads the two in order.
 */
export const CLIENT_TOOL_HANDOFF_RESULT = "Sent to the client, which runs this tool itself; its result comes in the next message.";

const NO_ARGUMENTS = { type: "object", properties: {} };

/**
 * The turn's client tools as the loop and the provider see them. They are never run here: the
 * loop hands a call of one back to the caller (`handoff`). A client tool replaces an agent tool of
 * the same name for the turn, as the caller asked for it by name.
 */
export function withClientTools(
  tools: readonly AgentTool[],
  specs: readonly ToolSpec[],
  client: readonly ClientToolSpec[],
  model: { api: ModelApi; provider: string },
): { tools: AgentTool[]; specs: ToolSpec[] } {
  const names = new Set(client.map((tool) => tool.name));
  const handoffs: AgentTool[] = client.map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: (tool.parameters ?? NO_ARGUMENTS) as unknown as TSchema,
    handoff: true,
    execute: () => Promise.reject(new Error(`client tool ${tool.name} is run by the client, not here`)),
  }));
  return {
    tools: [...tools.filter((tool) => !names.has(tool.name)), ...handoffs],
    specs: [
      ...specs.filter((spec) => !names.has(spec.name)),
      ...client.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        parameters: normalizeToolSchema(tool.parameters ?? NO_ARGUMENTS, model.api, model.provider),
      })),
    ],
  };
}

/** The system prompt's line when the caller requires a client tool call (`tool_choice`). */
export function requiredClientToolLine(names: readonly string[]): string {
  return names.length === 1
    ? `Call the client tool ${names[0]} before you answer; the client runs it and sends its result back.`
    : `Call one of the client tools (${names.join(", ")}) before you answer; the client runs it and sends its result back.`;
}

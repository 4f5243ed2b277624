import type { TSchema } from "@sinclair/typebox";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ImageBlock, TextBlock } from "../../models/messages.js";
import type { AgentTool, ToolResult } from "../types.js";
import type { McpToolInfo } from "./mcp-connection.js";

const validators = new AjvJsonSchemaValidator();

/** What a tool needs of its server: a call that resolves with the server's result. */
export type McpCall = (toolName: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<CallToolResult>;

/**
 * An MCP server's tool as an agent tool named `name` (`<prefix>__<tool>`). Owner only: a server
 * acts with whatever rights and credentials its owner gave it, as `exec` does.
 */
export function mcpAgentTool(name: string, serverName: string, info: McpToolInfo, call: McpCall): AgentTool {
  const schema = { type: "object", ...info.inputSchema };
  const validate = validators.getValidator(schema as never);
  const about = info.description ?? info.title ?? `The ${info.name} tool.`;
  return {
    name,
    description: `${about} (MCP server "${serverName}")`,
    // The server's own JSON Schema, sent to the model as it is and checked by checkArguments.
    parameters: schema as unknown as TSchema,
    ownerOnly: true,
    checkArguments(args) {
      const checked = validate(args ?? {});
      return checked.valid ? undefined : { where: "arguments", problem: checked.errorMessage };
    },
    async execute(args, _ctx, signal) {
      return mcpToolResult(await call(info.name, (args ?? {}) as Record<string, unknown>, signal));
    },
  };
}

/**
 * The server's result as the model reads it: text and images as they are, an embedded text
 * resource as its text under its URI, anything else (audio, binary resources, links) as one line
 * naming it; `structuredContent` as JSON when there is no content. `isError` stays an error.
 */
export function mcpToolResult(result: CallToolResult): ToolResult {
  const content: (TextBlock | ImageBlock)[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") content.push({ type: "text", text: block.text });
    else if (block.type === "image") content.push({ type: "image", data: block.data, mimeType: block.mimeType });
    else if (block.type === "resource") content.push(resourceBlock(block.resource));
    else if (block.type === "resource_link") content.push({ type: "text", text: `[link ${block.name}: ${block.uri}]` });
    else content.push({ type: "text", text: `[${block.type} content (${"mimeType" in block ? block.mimeType : "unknown type"}), not shown]` });
  }
  if (content.length === 0) content.push({ type: "text", text: result.structuredContent ? JSON.stringify(result.structuredContent) : "(no output)" });
  return { content, ...(result.isError ? { isError: true } : {}) };
}

/** One resource's contents for the model: its text under its URI, an image as an image, other binary content as a line naming it. */
export function resourceBlock(resource: { uri: string; mimeType?: string; text?: string; blob?: string }): TextBlock | ImageBlock {
  if (typeof resource.text === "string") return { type: "text", text: `[resource ${resource.uri}]\n${resource.text}` };
  if (resource.blob && resource.mimeType?.startsWith("image/")) return { type: "image", data: resource.blob, mimeType: resource.mimeType };
  return { type: "text", text: `[resource ${resource.uri}: ${resource.mimeType ?? "binary"}, not shown]` };
}

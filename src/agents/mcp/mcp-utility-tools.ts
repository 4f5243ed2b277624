import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { ImageBlock, TextBlock } from "../../models/messages.js";
import type { AgentTool, ToolResult } from "../types.js";
import { resourceBlock } from "./mcp-agent-tool.js";
import type { McpConnection } from "./mcp-connection.js";

/**
 * The tools a server that offers resources or prompts gets besides its own, as in OpenClaw:
 * `resources_list`, `resources_read`, `prompts_list` and `prompts_get` (named
 * `<prefix>__resources_list` and so on, and filtered by `toolFilter` under these names).
 */
export type McpUtilityName = "resources_list" | "resources_read" | "prompts_list" | "prompts_get";

const CursorArgs = Type.Object({ cursor: Type.Optional(Type.String({ description: "The cursor a previous page ended with, for the next page." })) });
const ReadArgs = Type.Object({ uri: Type.String({ description: "The resource's URI, as resources_list gives it." }) });
const PromptArgs = Type.Object({
  name: Type.String({ description: "The prompt's name, as prompts_list gives it." }),
  arguments: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "The prompt's arguments by name." })),
});

type Utility = { mcpName: McpUtilityName; build: (name: string) => AgentTool };

/** The utility tools for what the server offers, each under its OpenClaw name; `connection` is the live one or throws. */
export function mcpUtilityTools(serverName: string, offers: { resources: boolean; prompts: boolean }, connection: () => McpConnection): Utility[] {
  const utility = <S extends TSchema>(mcpName: McpUtilityName, text: string, parameters: S, run: (args: Static<S>, signal: AbortSignal) => Promise<ToolResult>): Utility => ({
    mcpName,
    build: (name) => ({ name, description: `${text} (MCP server "${serverName}")`, parameters, ownerOnly: true, execute: (args: Static<S>, _ctx, signal) => run(args, signal) }),
  });
  const tools: Utility[] = [];
  if (offers.resources)
    tools.push(
      utility("resources_list", "List the resources the server offers: name, URI, type and description.", CursorArgs, async (args, signal) => {
        const page = await connection().listResources(args.cursor, signal);
        const lines = page.resources.map((r) => `- ${r.name}: ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? ` — ${r.description}` : ""}`);
        return listing(lines, "(no resources)", page.nextCursor);
      }),
      utility("resources_read", "Read one of the server's resources by URI.", ReadArgs, async (args, signal) => {
        const read = await connection().readResource(args.uri, signal);
        return blocks(read.contents.map(resourceBlock));
      }),
    );
  if (offers.prompts)
    tools.push(
      utility("prompts_list", "List the prompts the server offers, with their arguments (* required).", CursorArgs, async (args, signal) => {
        const page = await connection().listPrompts(args.cursor, signal);
        const lines = page.prompts.map(
          (p) => `- ${p.name}(${(p.arguments ?? []).map((a) => `${a.name}${a.required ? "*" : ""}`).join(", ")})${p.description ? ` — ${p.description}` : ""}`,
        );
        return listing(lines, "(no prompts)", page.nextCursor);
      }),
      utility("prompts_get", "Fetch one of the server's prompts, filled in with its arguments: its messages, each with its role.", PromptArgs, async (args, signal) => {
        const prompt = await connection().getPrompt(args.name, args.arguments ?? {}, signal);
        const out: (TextBlock | ImageBlock)[] = prompt.description ? [{ type: "text", text: prompt.description }] : [];
        for (const { role, content } of prompt.messages) {
          if (content.type === "text") out.push({ type: "text", text: `${role}: ${content.text}` });
          else if (content.type === "image") out.push({ type: "text", text: `${role}:` }, { type: "image", data: content.data, mimeType: content.mimeType });
          else if (content.type === "resource") out.push({ type: "text", text: `${role}:` }, resourceBlock(content.resource));
          else out.push({ type: "text", text: `${role}: [${content.type} content, not shown]` });
        }
        return blocks(out);
      }),
    );
  return tools;
}

/** One line per entry, and how to get the next page when there is one. */
function listing(lines: string[], empty: string, nextCursor: string | undefined): ToolResult {
  return text([lines.length > 0 ? lines.join("\n") : empty, ...(nextCursor ? [`More: call again with cursor "${nextCursor}".`] : [])].join("\n"));
}

function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}

function blocks(content: (TextBlock | ImageBlock)[]): ToolResult {
  return { content: content.length > 0 ? content : [{ type: "text", text: "(empty)" }] };
}

import path from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

/** The ACP kind of each gateway tool; an IDE picks icons and review UI by it. */
const TOOL_KINDS: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  apply_patch: "edit",
  exec: "execute",
  process: "execute",
  web_fetch: "fetch",
  memory_search: "search",
  web_search: "search",
};

export function toolKind(name: string | undefined): ToolKind {
  return (name && TOOL_KINDS[name]) || "other";
}

/** `exec: ls -la` — the tool and its most telling argument, one line, at most ~120 characters. */
export function toolTitle(name: string | undefined, args: unknown): string {
  const tool = name || "tool";
  const record = args && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const main = ["command", "path", "file_path", "url", "query", "task", "message"].map((k) => record[k]).find((v) => typeof v === "string") as string | undefined;
  if (!main) return tool;
  const oneLine = main.replace(/\s+/g, " ").trim();
  return `${tool}: ${oneLine.length > 100 ? `${oneLine.slice(0, 100)}…` : oneLine}`;
}

/** Absolute file paths named in the arguments, so an IDE can follow along (ACP locations are absolute). */
export function toolLocations(args: unknown): ToolCallLocation[] | undefined {
  if (!args || typeof args !== "object") return undefined;
  const record = args as Record<string, unknown>;
  const found = ["path", "file_path"].map((k) => record[k]).filter((v): v is string => typeof v === "string" && path.isAbsolute(v));
  return found.length > 0 ? found.map((p) => ({ path: p })) : undefined;
}

/** A tool result's text as ACP content (results are `{content:[{type:"text"}]}` or plain text). */
export function toolContent(result: unknown): ToolCallContent[] | undefined {
  const texts: string[] = [];
  if (typeof result === "string") texts.push(result);
  else if (result && typeof result === "object") {
    const content = (result as { content?: unknown }).content;
    if (Array.isArray(content)) {
      for (const block of content) if (block && block.type === "text" && typeof block.text === "string") texts.push(block.text);
    } else if (typeof content === "string") texts.push(content);
  }
  const text = texts.join("\n");
  return text ? [{ type: "content", content: { type: "text", text } }] : undefined;
}

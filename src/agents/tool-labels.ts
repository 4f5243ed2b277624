import type { OpenClawConfig } from "../config/index.js";
import { findAgentEntry } from "./agent-config.js";

/** How much of a tool call its progress line and `/verbose` summary show: a compact label, or the label and the raw arguments. */
export type ToolProgressDetail = "explain" | "raw";

export interface ToolLabelOptions {
  /** `raw`: a shell tool's command is shown; `status`: only that a command runs. */
  commandText: "status" | "raw";
  detail: ToolProgressDetail;
}

const RAW_ARGS_MAX = 300;

/**
 * A tool call as one line for people: an icon, the tool, and what it works on (a file, a query, a
 * URL). A shell command is shown only with `commandText: raw`, whatever the detail. With detail
 * `raw`, any other tool's arguments follow as JSON (cut at 300 characters).
 */
export function toolLabel(toolName: string, args: Record<string, unknown>, options: ToolLabelOptions): string {
  const name = toolName.toLowerCase();
  const text = (key: string): string | undefined => (typeof args[key] === "string" && (args[key] as string).trim() ? (args[key] as string).trim().replace(/\s+/g, " ") : undefined);
  if (name === "exec" || name === "process") return options.commandText === "raw" && text("command") ? `💻 ${title(name)}: ${text("command")}` : `💻 ${title(name)}`;
  const label = explain(name, text);
  if (options.detail !== "raw" || Object.keys(args).length === 0) return label;
  const raw = JSON.stringify(args);
  return `${label} · ${raw.length > RAW_ARGS_MAX ? `${raw.slice(0, RAW_ARGS_MAX - 1)}…` : raw}`;
}

/** The agent's own `toolProgressDetail` (its `agents.entries` or `agents.list` entry), else `agents.defaults.toolProgressDetail`, else `explain`. */
export function toolProgressDetailFor(config: OpenClawConfig, agentId: string): ToolProgressDetail {
  return findAgentEntry(config, agentId)?.toolProgressDetail ?? config.agents.defaults.toolProgressDetail ?? "explain";
}

function explain(name: string, text: (key: string) => string | undefined): string {
  if (name === "read") return withDetail("📖", name, text("path"));
  if (name === "write" || name === "edit" || name === "apply_patch") return withDetail("✍️", name, text("path"));
  if (name === "web_search" || name === "x_search" || name === "memory_search" || name === "sessions_search")
    return withDetail("🔎", name, text("query") && `for "${text("query")}"`);
  if (name === "web_fetch") return withDetail("🌐", name, text("url"));
  if (name === "tts") return withDetail("🔊", name, text("text") && `"${cut(text("text")!, 80)}"`);
  if (name === "browser") return withDetail("🧭", name, [text("action"), text("kind"), text("url") ?? text("ref")].filter(Boolean).join(" ") || undefined);
  if (name === "code_execution") return withDetail("🧮", name, text("task") && `"${cut(text("task")!, 80)}"`);
  if (name === "image_generate") return withDetail("🎨", name, text("prompt") && `"${cut(text("prompt")!, 80)}"`);
  return `🛠️ ${title(name)}`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function withDetail(icon: string, name: string, detail: string | undefined): string {
  return detail ? `${icon} ${title(name)}: ${detail}` : `${icon} ${title(name)}`;
}

/** `web_search` → `Web Search`. */
function title(name: string): string {
  return name
    .split(/[_-]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");
}

import { resolveEffectiveTools } from "../../../src/agents/policy/index.js";
import type { EffectiveTools, ToolPolicyInput } from "../../../src/agents/policy/index.js";

/** A realistic registry: built-ins from every group plus one MCP tool. */
export const AVAILABLE = [
  "read",
  "write",
  "edit",
  "apply_patch",
  "exec",
  "process",
  "web_search",
  "web_fetch",
  "memory_search",
  "memory_get",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
  "session_status",
  "message",
  "cron",
  "gateway",
  "browser",
  "canvas",
  "nodes",
  "image",
  "mcp_github_search",
];

export function resolve(config: unknown, overrides: Partial<ToolPolicyInput> = {}): EffectiveTools {
  return resolveEffectiveTools({
    config,
    agentId: "main",
    senderIsOwner: true,
    ownerOnlyTools: [],
    available: AVAILABLE,
    ...overrides,
  });
}

export function without(...tools: string[]): string[] {
  return AVAILABLE.filter((tool) => !tools.includes(tool));
}

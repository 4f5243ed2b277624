import fs from "node:fs";
import { findCommand, whyCommandIsMissing } from "../../acp/stdio/command-lookup.js";
import { mcpServerSettings } from "../../agents/mcp/mcp-settings.js";
import { defaultAgentId } from "../../agents/agent-config.js";
import { resolveEffectiveTools } from "../../agents/policy/index.js";
import type { DoctorCheck, DoctorContext } from "./check.js";

/** Any MCP tool name: the policy treats every one alike unless a list names a server. */
const SAMPLE_MCP_TOOL = "mcp-server__tool";

/**
 * `mcp.servers`, without connecting (`openclaw mcp probe` does): a stdio server's command must be
 * found (on the `PATH` its child gets) and its `cwd` must be a folder; and when sessions are
 * sandboxed, the sandbox layer must list the MCP tools, or sandboxed turns never see them.
 */
export function checkMcp(ctx: DoctorContext): DoctorCheck[] {
  if (!ctx.loaded) return [];
  const config = ctx.loaded.config;
  const checks: DoctorCheck[] = mcpServerSettings(config).map((server): DoctorCheck => {
    const id = `mcp:${server.name}`;
    if (server.kind === "http")
      return { id, status: "ok", message: `MCP server ${server.name}: ${server.transport} ${server.url} (not contacted; \`openclaw mcp probe ${server.name}\` connects)` };
    if (server.cwd && !isDirectory(server.cwd))
      return { id, status: "fail", message: `MCP server ${server.name}: its cwd ${server.cwd} is not a folder`, fix: `create it or correct mcp.servers.${server.name}.cwd` };
    const cwd = server.cwd ?? process.cwd();
    const found = findCommand(server.command, ctx.env, cwd);
    if (!found)
      return {
        id,
        status: "fail",
        message: `MCP server ${server.name}: ${whyCommandIsMissing(server.command, cwd)}`,
        fix: `install it, or give its full path in mcp.servers.${server.name}.command`,
      };
    return { id, status: "ok", message: `MCP server ${server.name}: ${found} (not started; \`openclaw mcp probe ${server.name}\` starts it)` };
  });
  if (checks.length > 0 && sandboxHidesMcp(config)) {
    checks.push({
      id: "mcp:sandbox",
      status: "warn",
      message:
        "sessions are sandboxed (agents.defaults.sandbox.mode) and the tool policy's sandbox layer (tools.sandbox.tools) does not keep the MCP tools: sandboxed turns do not get them",
      fix: 'add "bundle-mcp" (or "<server>__*") to tools.sandbox.tools.allow if sandboxed sessions should use them',
    });
  }
  return checks;
}

/** Whether the default agent's sandboxed turns lose an MCP tool at the policy's sandbox layer (and not before it). */
function sandboxHidesMcp(config: NonNullable<DoctorContext["loaded"]>["config"]): boolean {
  if ((config.agents.defaults.sandbox?.mode ?? "off") === "off") return false;
  const policy = resolveEffectiveTools({ config, agentId: defaultAgentId(config), senderIsOwner: true, ownerOnlyTools: [], available: [SAMPLE_MCP_TOOL], sandboxed: true });
  return policy.removed.some((removed) => removed.stage === "sandbox");
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

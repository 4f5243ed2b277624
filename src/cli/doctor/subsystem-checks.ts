import fs from "node:fs";
import pino from "pino";
import { resolveAcpSettings } from "../../acp/config.js";
import { StdioAcpRuntime } from "../../acp/stdio/stdio-runtime.js";
import { defaultAgentId } from "../../agents/agent-config.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { MemoryService } from "../../memory/index.js";
import type { DoctorCheck, DoctorContext } from "./check.js";

/** The default agent's memory index: opens, and says when search runs without vectors or is stale. */
export async function checkMemory(ctx: DoctorContext): Promise<DoctorCheck> {
  if (!ctx.loaded) return { id: "memory", status: "skip", message: "skipped: the config did not load" };
  const config = ctx.loaded.config;
  const silent = pino({ level: "silent" });
  const memory = new MemoryService({
    stateDir: ctx.stateDir,
    config: () => config,
    logger: silent,
    watch: false,
    workspaceDirOf: (id) => resolveWorkspaceDir(config, id, ctx.stateDir, ctx.env),
  });
  if (!memory.enabled()) return { id: "memory", status: "skip", message: "memory is disabled (memory.search.enabled: false)" };
  const agentId = defaultAgentId(config);
  // Opening the index creates it: a check must not, so an index not built yet is only reported.
  if (!fs.existsSync(memory.dbPathOf(agentId))) {
    return { id: "memory", status: "ok", message: `memory of agent "${agentId}": no index yet (built on first use, or \`openclaw memory index\`)` };
  }
  try {
    const status = await memory.status(agentId);
    const summary = `memory of agent "${agentId}": ${status.files} file(s), ${status.chunks} chunk(s), ${status.mode}`;
    if (status.identityMismatch)
      return { id: "memory", status: "warn", message: `${summary}; ${status.identityMismatch}`, fix: "`openclaw memory index --force` rebuilds the index" };
    if (status.dirty)
      return {
        id: "memory",
        status: "warn",
        message: `${summary}; the index is behind the memory files`,
        fix: "`openclaw memory index` (the gateway also catches up on the next search)",
      };
    if (status.ftsOnlyReason)
      return { id: "memory", status: "warn", message: `${summary}; keyword search only: ${status.ftsOnlyReason}`, fix: "see docs/memory.md (embedding provider)" };
    return { id: "memory", status: "ok", message: summary };
  } catch (err) {
    return {
      id: "memory",
      status: "fail",
      message: `memory index of agent "${agentId}" cannot be opened: ${(err as Error).message}`,
      fix: "`openclaw memory index --force` rebuilds it",
    };
  } finally {
    await memory.close().catch(() => {});
  }
}

/** Each configured ACP agent starts and answers `initialize` (what `openclaw acp doctor` does). */
export async function checkAcp(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.loaded) return [];
  const settings = resolveAcpSettings(ctx.loaded.config);
  if (!settings.enabled) return [{ id: "acp", status: "skip", message: "ACP agents are disabled (acp.enabled: false)" }];
  const runtime = new StdioAcpRuntime({ settings: () => settings, logger: pino({ level: "silent" }) });
  const report = await runtime.doctor();
  if (report.agents.length === 0) return [{ id: "acp", status: "warn", message: "ACP is enabled but no agent is configured", fix: "add one under acp.agents (docs/acp.md)" }];
  return report.agents.map((agent) => ({
    id: `acp:${agent.agent}`,
    status: agent.ok ? "ok" : "fail",
    message: `ACP agent ${agent.agent}: ${agent.message}`,
    ...(agent.ok ? {} : { fix: "`openclaw acp doctor` has the details" }),
  }));
}

import { defaultAgentId, listAgentConfigs } from "../agents/agent-config.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import { loadConfig, resolveStateDir, type OpenClawConfig } from "../config/index.js";
import { MemoryService, type MemoryStatus, type SyncProgress } from "../memory/index.js";
import { CliError, printJson } from "./output.js";

interface MemoryFlags {
  agent?: string;
  json?: boolean;
}

/**
 * `openclaw memory …` works on the index files directly (no gateway needed; SQLite's WAL lets a
 * running gateway keep its own connection meanwhile). Warnings go to stderr.
 */
async function withMemory<T>(flags: MemoryFlags, use: (memory: MemoryService, agentId: string) => Promise<T>): Promise<T> {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const agentId = resolveAgent(config, flags.agent);
  const logger = {
    warn: (obj: unknown, msg?: string) => process.stderr.write(`warning: ${msg ?? ""}${describe(obj)}\n`),
    info: () => {},
    debug: () => {},
  } as never;
  const memory = new MemoryService({ stateDir, config: () => config, logger, watch: false, workspaceDirOf: (id) => resolveWorkspaceDir(config, id, stateDir, process.env) });
  if (!memory.enabled()) throw new CliError("memory is disabled (memory.search.enabled is false)");
  try {
    return await use(memory, agentId);
  } finally {
    await memory.close();
  }
}

export async function memoryStatusCommand(flags: MemoryFlags): Promise<void> {
  await withMemory(flags, async (memory, agentId) => {
    const status = await memory.status(agentId);
    if (flags.json) return printJson(status);
    process.stdout.write(formatStatus(status));
  });
}

export async function memoryIndexCommand(flags: MemoryFlags & { force?: boolean }): Promise<void> {
  await withMemory(flags, async (memory, agentId) => {
    const bar = process.stderr.isTTY && !flags.json ? progressBar() : undefined;
    const report = await memory.sync(agentId, { ...(flags.force ? { force: true } : {}), ...(bar ? { onProgress: bar.update } : {}) });
    bar?.done();
    const status = await memory.status(agentId);
    if (flags.json) return printJson({ ...report, embeddingError: report.embeddingError?.message, status });
    process.stdout.write(
      `Indexed ${report.indexed} file(s), removed ${report.removed}, unchanged ${report.unchanged}, skipped ${report.skipped.length}.\n` +
        (report.embeddingError ? `Embeddings failed: ${report.embeddingError.message}\n` : "") +
        formatStatus(status),
    );
  });
}

export async function memorySearchCommand(query: string, flags: MemoryFlags & { maxResults?: string }): Promise<void> {
  const maxResults = flags.maxResults === undefined ? undefined : Number(flags.maxResults);
  if (maxResults !== undefined && (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50)) throw new CliError("--max-results: expected an integer from 1 to 50");
  await withMemory(flags, async (memory, agentId) => {
    await memory.sync(agentId);
    const answer = await memory.search(agentId, query, maxResults ? { maxResults } : {}).catch((err: Error) => {
      throw new CliError(err.message);
    });
    if (flags.json) return printJson(answer);
    for (const warning of answer.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (answer.results.length === 0) return void process.stdout.write(`No memory matched (${answer.mode}).\n`);
    for (const hit of answer.results) {
      process.stdout.write(`${hit.score.toFixed(3)}  ${hit.path}:${hit.startLine}-${hit.endLine}\n${indent(hit.snippet)}\n\n`);
    }
  });
}

function resolveAgent(config: OpenClawConfig, wanted: string | undefined): string {
  const id = (wanted ?? defaultAgentId(config)).toLowerCase();
  const known = listAgentConfigs(config).map((a) => a.id);
  if (!known.includes(id)) throw new CliError(`unknown agent "${wanted}"; known agents: ${known.join(", ")}`);
  return id;
}

function formatStatus(s: MemoryStatus): string {
  const lines = [
    `Agent: ${s.agentId}`,
    `Workspace: ${s.workspaceDir}`,
    `Index: ${s.dbPath}`,
    `Files: ${s.files}   Chunks: ${s.chunks} (${s.embeddedChunks} with vectors)`,
    `Search: ${s.mode}${s.ftsOnlyReason ? ` (${s.ftsOnlyReason})` : ""}`,
    `Provider: ${s.provider}${s.model ? ` / ${s.model}` : ""}${s.dims ? `, ${s.dims} dims` : ""}`,
    `Vectors: ${s.vectorBackend}${s.fallbackReason ? ` (${s.fallbackReason})` : ""}`,
    `Dirty: ${s.dirty ? "yes" : "no"}${s.indexing ? ", indexing now" : ""}`,
    `Last sync: ${s.lastSyncAt ?? "never"}`,
    ...s.skipped.map((f) => `Skipped: ${f.path}: ${f.reason}`),
  ];
  return `${lines.join("\n")}\n`;
}

function progressBar(): { update: (p: SyncProgress) => void; done: () => void } {
  const width = 30;
  return {
    update: ({ done, total }) => {
      const filled = total === 0 ? width : Math.round((done / total) * width);
      process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} files`);
    },
    done: () => process.stderr.write("\n"),
  };
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

function describe(obj: unknown): string {
  if (!obj || typeof obj !== "object") return "";
  const entries = Object.entries(obj as Record<string, unknown>).filter(([k]) => k !== "agentId");
  return entries.length === 0 ? "" : ` (${entries.map(([k, v]) => `${k}: ${String(v)}`).join(", ")})`;
}

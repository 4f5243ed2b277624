import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defaultAgentId, findAgentEntry, normalizeAgentId, type AgentsConfigView } from "../agent-config.js";
import { DEFAULT_BOOTSTRAP_FILES } from "./default-bootstrap-files.js";
import { expandHome } from "../../infra/home-path.js";

/** A path as the config or a command line writes it (`~/` is the home directory), made absolute. */
export function absolutePath(input: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(expandHome(input.trim(), env.HOME?.trim() || os.homedir()));
}

/**
 * Where an agent works. In order:
 * 1. The agent's own `workspace` (`agents.entries.<id>` or `agents.list[]`).
 * 2. For the default agent: `agents.defaults.workspace`, else `$OPENCLAW_WORKSPACE_DIR`, else
 *    `<state>/workspace` (the variable is the key's default, as in OpenClaw; the config wins).
 * 3. For any other agent: `<state>/workspace-<agentId>`. Neither `agents.defaults.workspace` nor
 *    the variable is used here on purpose: agents sharing one folder would share one MEMORY.md
 *    and persona.
 */
export function resolveWorkspaceDir(config: AgentsConfigView, agentId: string, stateDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const own = findAgentEntry(config, agentId)?.workspace?.trim();
  if (own) return absolutePath(own, env);
  const id = normalizeAgentId(agentId);
  if (id === defaultAgentId(config)) {
    const shared = config.agents?.defaults?.workspace?.trim() || env.OPENCLAW_WORKSPACE_DIR?.trim();
    return shared ? absolutePath(shared, env) : path.join(absolutePath(stateDir, env), "workspace");
  }
  return path.join(absolutePath(stateDir, env), `workspace-${id}`);
}

export interface EnsureWorkspaceResult {
  workspaceDir: string;
  /** File names written by this call; empty when the workspace was already complete. */
  created: string[];
  /** True when none of the bootstrap files existed before this call. */
  brandNew: boolean;
}

async function exists(filePath: string): Promise<boolean> {
  try {
    await fs.lstat(filePath);
    return true;
  } catch {
    return false;
  }
}

/** Writes only when the file is absent; `wx` makes that atomic, so a racing user edit is never lost. */
async function writeIfMissing(filePath: string, content: string): Promise<boolean> {
  try {
    await fs.writeFile(filePath, content, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Creates the workspace (0700) and seeds each missing default file. Never overwrites anything.
 * BOOTSTRAP.md is seeded only into a brand-new workspace: the agent deletes it after the first
 * run, and putting it back on every start would replay the first-run ritual forever.
 */
export async function ensureWorkspace(dir: string): Promise<EnsureWorkspaceResult> {
  const workspaceDir = path.resolve(dir);
  await fs.mkdir(workspaceDir, { recursive: true, mode: 0o700 });
  const present = await Promise.all(DEFAULT_BOOTSTRAP_FILES.map((file) => exists(path.join(workspaceDir, file.name))));
  // A lowercase memory.md is the older spelling of MEMORY.md; do not add a second memory file.
  const hasLowercaseMemory = await exists(path.join(workspaceDir, "memory.md"));
  const brandNew = !present.some(Boolean) && !hasLowercaseMemory;

  const created: string[] = [];
  for (const file of DEFAULT_BOOTSTRAP_FILES) {
    if (file.onlyWhenNew && !brandNew) continue;
    if (file.name === "MEMORY.md" && hasLowercaseMemory) continue;
    if (await writeIfMissing(path.join(workspaceDir, file.name), file.content)) created.push(file.name);
  }
  await fs.mkdir(path.join(workspaceDir, "memory"), { recursive: true, mode: 0o700 });
  return { workspaceDir, created, brandNew };
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultAgentId, listAgentConfigs } from "../../agents/agent-config.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { loadConfig, resolveConfigPath } from "../../config/index.js";
import { isPathInside } from "../../infra/real-path.js";
import { gatewayStatePaths } from "../../infra/paths.js";

/** OpenClaw's reset scopes, narrowest first. */
export const RESET_SCOPES = ["config", "config+creds+sessions", "full"] as const;
export type ResetScope = (typeof RESET_SCOPES)[number];

export function isResetScope(value: string): value is ResetScope {
  return (RESET_SCOPES as readonly string[]).includes(value);
}

export interface ResetTarget {
  path: string;
  /** What it is, for the lines the command prints. */
  what: string;
}

export interface ResetPlan {
  targets: ResetTarget[];
  /** Paths left alone because removing them would take more than OpenClaw's files (a home folder, the working folder). */
  refused: { path: string; why: string }[];
  warnings: string[];
}

/**
 * What a reset of `scope` moves to the Trash, as OpenClaw's reset chooses it:
 * - `config`: the config file;
 * - `config+creds+sessions`: that, the credentials folder (the gateway token, pairing grants) and
 *   each agent's sessions folder; workspaces and model keys (`auth-profiles.json`) stay;
 * - `full`: the whole state dir, the config file when it lives elsewhere, and every agent's
 *   workspace.
 * Only paths that exist are listed. A target that is the file system's root, the home folder, or
 * holds the working folder is refused, never moved.
 */
export function resetPlan(scope: ResetScope, stateDir: string, env: NodeJS.ProcessEnv): ResetPlan {
  const candidates: ResetTarget[] = [];
  const warnings: string[] = [];
  const configFile = resolveConfigPath(stateDir, env);
  // The state dir first: the config file in it goes with it.
  if (scope === "full") candidates.push({ path: stateDir, what: "state dir" });
  if (configFile) candidates.push({ path: configFile, what: "config file" });
  if (scope === "config+creds+sessions") {
    candidates.push({ path: gatewayStatePaths(stateDir).credentialsDir, what: "credentials" });
    for (const dir of agentSessionDirs(stateDir)) candidates.push({ path: dir, what: "sessions" });
  }
  if (scope === "full") for (const dir of configuredWorkspaces(stateDir, env, warnings)) candidates.push({ path: dir, what: "workspace" });
  return { ...planTargets(candidates, env), warnings };
}

/**
 * The candidates that exist, in order, each once: one inside a target already listed goes with
 * it (the state dir holds the config file). A candidate that is the file system's root, the home
 * folder, or holds the working folder is refused, with why.
 */
export function planTargets(candidates: readonly ResetTarget[], env: NodeJS.ProcessEnv): Pick<ResetPlan, "targets" | "refused"> {
  const plan: Pick<ResetPlan, "targets" | "refused"> = { targets: [], refused: [] };
  for (const target of candidates) {
    const resolved = path.resolve(target.path);
    if (!pathExists(resolved)) continue;
    if (plan.targets.some((t) => t.path === resolved || isPathInside(t.path, resolved))) continue;
    const why = unsafeBecause(resolved, env);
    if (why) plan.refused.push({ path: resolved, why });
    else plan.targets.push({ path: resolved, what: target.what });
  }
  return plan;
}

/** `<state>/agents/<id>/sessions` for every agent folder there. */
function agentSessionDirs(stateDir: string): string[] {
  const agentsDir = path.join(stateDir, "agents");
  let ids: string[];
  try {
    ids = fs.readdirSync(agentsDir);
  } catch {
    return [];
  }
  return ids.map((id) => path.join(agentsDir, id, "sessions")).filter((dir) => fs.existsSync(dir));
}

/** Every configured agent's workspace; with a config that does not load, the default agent's default one. */
export function configuredWorkspaces(stateDir: string, env: NodeJS.ProcessEnv, warnings: string[]): string[] {
  let config: Parameters<typeof resolveWorkspaceDir>[0];
  try {
    config = loadConfig({ stateDir, env }).config;
  } catch (err) {
    warnings.push(`the config does not load (${(err as Error).message}): only the default workspace is considered`);
    return [resolveWorkspaceDir({}, "main", stateDir, env)];
  }
  const ids = new Set([defaultAgentId(config), ...listAgentConfigs(config).map((agent) => agent.id)]);
  return [...new Set([...ids].map((id) => resolveWorkspaceDir(config, id, stateDir, env)))];
}

function unsafeBecause(target: string, env: NodeJS.ProcessEnv): string | undefined {
  if (target === path.parse(target).root) return "it is the file system's root";
  const home = path.resolve(env.HOME?.trim() || os.homedir());
  if (target === home) return "it is the home folder";
  const cwd = path.resolve(process.cwd());
  if (cwd === target || isPathInside(target, cwd)) return "it holds the working folder (run reset from another folder)";
  return undefined;
}

export function pathExists(target: string): boolean {
  try {
    fs.lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

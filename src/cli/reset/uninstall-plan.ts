import fs from "node:fs";
import path from "node:path";
import { resolveConfigPath } from "../../config/index.js";
import { isPathInside } from "../../infra/real-path.js";
import { configuredWorkspaces, planTargets, type ResetPlan, type ResetTarget } from "./reset-plan.js";

/**
 * What `openclaw uninstall --state` and `--workspace` move to the Trash, as OpenClaw's uninstall
 * chooses it: `--state` the state dir and a config file outside it; `--workspace` every configured
 * agent's workspace. `--state` alone keeps the workspaces: when one lies inside the state dir, the
 * state dir's other entries go one by one and the entry holding it stays (listed in `kept`).
 */
export function uninstallPlan(scopes: { state: boolean; workspace: boolean }, stateDir: string, env: NodeJS.ProcessEnv): ResetPlan & { kept: string[] } {
  const warnings: string[] = [];
  const workspaces = configuredWorkspaces(stateDir, env, warnings).map((dir) => path.resolve(dir));
  const candidates: ResetTarget[] = [];
  const kept: string[] = [];
  if (scopes.state) {
    const root = path.resolve(stateDir);
    const inside = scopes.workspace ? [] : workspaces.filter((dir) => dir !== root && isPathInside(root, dir));
    if (inside.length === 0) candidates.push({ path: root, what: "state dir" });
    else {
      for (const name of safeEntries(root)) {
        const entry = path.join(root, name);
        if (inside.some((dir) => isPathInside(entry, dir))) kept.push(entry);
        else candidates.push({ path: entry, what: "state" });
      }
    }
    const configFile = resolveConfigPath(stateDir, env);
    if (configFile) candidates.push({ path: configFile, what: "config file" });
  }
  if (scopes.workspace) for (const dir of workspaces) candidates.push({ path: dir, what: "workspace" });
  return { ...planTargets(candidates, env), warnings, kept };
}

function safeEntries(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

import { ensureWorkspace } from "./context/workspace.js";
import { loadBootstrapFiles, type LoadedBootstrap } from "./context/bootstrap-files.js";
import { discoverSkills, type DiscoveredSkills } from "./skills/discover-skills.js";
import { normalizeToolSchema } from "../models/index.js";
import type { AgentTool, ModelApi, ToolSpec } from "./types.js";

/**
 * What every turn of an agent rebuilds from disk — workspace files, skills, tool schemas —
 * changes rarely and costs more than the loop itself, so it is cached briefly. An edit to
 * AGENTS.md or a new skill reaches the next turn that starts after `FRESH_MS`.
 */
export const FRESH_MS = 2_000;

/** Per workspace, the creation in flight or done: a warm-up and the first turn share one. */
const ensured = new Map<string, Promise<void>>();
const bootstrapCache = new Map<string, { at: number; value: Promise<LoadedBootstrap> }>();
const skillsCache = new Map<string, { at: number; value: Promise<DiscoveredSkills> }>();
const specCache = new Map<string, ToolSpec>();

/** Creates the workspace and its default files once per process (it never overwrites). */
export function ensureWorkspaceOnce(dir: string): Promise<void> {
  let done = ensured.get(dir);
  if (!done) {
    done = ensureWorkspace(dir).then(() => undefined);
    ensured.set(dir, done);
    // A failed creation is tried again by the next turn.
    done.catch(() => ensured.delete(dir));
  }
  return done;
}

export function cachedBootstrap(dir: string, caps: { maxCharsPerFile: number; maxTotalChars: number }): Promise<LoadedBootstrap> {
  return fresh(bootstrapCache, `${dir}\0${caps.maxCharsPerFile}\0${caps.maxTotalChars}`, () => loadBootstrapFiles(dir, caps));
}

/** `load`: `skills.load` (`extraDirs`, read after every other place; `allowSymlinkTargets`). */
export function cachedSkills(
  workspaceDir: string,
  stateDir: string,
  env: NodeJS.ProcessEnv,
  load: { extraDirs?: readonly string[]; allowSymlinkTargets?: readonly string[] } = {},
): Promise<DiscoveredSkills> {
  const extraDirs = load.extraDirs ?? [];
  const allowSymlinkTargets = load.allowSymlinkTargets ?? [];
  return fresh(skillsCache, `${workspaceDir}\0${stateDir}\0${extraDirs.join("\0")}\0\0${allowSymlinkTargets.join("\0")}`, () =>
    discoverSkills({ workspaceDir, stateDir, env, extraDirs, allowSymlinkTargets }),
  );
}

/** A tool as this provider should see it; the schema normalization is computed once per tool and provider. */
export function toolSpecFor(tool: AgentTool, api: ModelApi, provider: string): ToolSpec {
  const key = `${tool.name}\0${api}\0${provider}`;
  let spec = specCache.get(key);
  if (!spec) {
    spec = { name: tool.name, description: tool.description, parameters: normalizeToolSchema(tool.parameters, api, provider) };
    specCache.set(key, spec);
  }
  return spec;
}

function fresh<T>(cache: Map<string, { at: number; value: Promise<T> }>, key: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < FRESH_MS) return hit.value;
  const value = load();
  // A failed load must not be served from the cache.
  value.catch(() => cache.delete(key));
  cache.set(key, { at: now, value });
  return value;
}

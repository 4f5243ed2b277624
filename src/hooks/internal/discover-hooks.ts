import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";

export type HookSource = "bundled" | "managed" | "extra" | "workspace";

export interface DiscoveredHook {
  name: string;
  description: string;
  emoji?: string;
  /** `command:new`, or a whole family (`command`). */
  events: string[];
  source: HookSource;
  dir: string;
  /** The handler file; absent when the hook cannot run (see `problem`). */
  handlerPath?: string;
  problem?: string;
}

export interface HookRoots {
  bundledDir: string | null;
  stateDir: string;
  extraDirs: readonly string[];
  workspaceDir?: string;
}

const HANDLER_FILES = ["handler.js", "handler.mjs", "index.js", "index.mjs"];
const TS_HANDLERS = ["handler.ts", "index.ts"];

/**
 * Hooks in their folders, later roots overriding earlier ones by name: bundled, managed
 * (`<state>/hooks/`), `hooks.internal.load.extraDirs`. Workspace hooks (`<workspace>/hooks/`)
 * may add names but never replace one.
 */
export function discoverHooks(roots: HookRoots): DiscoveredHook[] {
  const byName = new Map<string, DiscoveredHook>();
  const add = (dir: string | null | undefined, source: HookSource) => {
    if (!dir) return;
    for (const hook of readRoot(dir, source)) {
      if (source === "workspace" && byName.has(hook.name)) continue;
      byName.set(hook.name, hook);
    }
  };
  add(roots.bundledDir, "bundled");
  add(path.join(roots.stateDir, "hooks"), "managed");
  for (const dir of roots.extraDirs) add(dir, "extra");
  if (roots.workspaceDir) add(path.join(roots.workspaceDir, "hooks"), "workspace");
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function readRoot(root: string, source: HookSource): DiscoveredHook[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const hook = readHook(path.join(root, e.name), source);
      return hook ? [hook] : [];
    });
}

/** One hook folder: HOOK.md with YAML frontmatter, and its handler. */
export function readHook(dir: string, source: HookSource): DiscoveredHook | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, "HOOK.md"), "utf8");
  } catch {
    return undefined;
  }
  const fallbackName = path.basename(dir);
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  let meta: Record<string, unknown> = {};
  let problem: string | undefined;
  try {
    meta = front ? ((parseYaml(front[1]!) as Record<string, unknown> | null) ?? {}) : {};
  } catch (err) {
    problem = `HOOK.md frontmatter is not valid YAML: ${(err as Error).message.split("\n")[0]}`;
  }
  const openclaw = ((meta.metadata as Record<string, unknown> | undefined)?.openclaw ?? {}) as Record<string, unknown>;
  const events = Array.isArray(openclaw.events) ? openclaw.events.filter((e): e is string => typeof e === "string") : [];
  if (!problem && events.length === 0) problem = "HOOK.md lists no events (metadata.openclaw.events)";
  const handler = HANDLER_FILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!problem && !handler) {
    const ts = TS_HANDLERS.find((f) => fs.existsSync(path.join(dir, f)));
    problem = ts ? `${ts} needs compiling: the gateway loads handler.js (or index.js)` : "no handler.js (or index.js) beside HOOK.md";
  }
  return {
    name: typeof meta.name === "string" && meta.name.trim() ? meta.name.trim() : fallbackName,
    description: typeof meta.description === "string" ? meta.description : "",
    ...(typeof openclaw.emoji === "string" ? { emoji: openclaw.emoji } : {}),
    events,
    source,
    dir,
    ...(handler && !problem ? { handlerPath: handler } : {}),
    ...(problem ? { problem } : {}),
  };
}

/** True when a hook listening to `events` hears `type:action`. */
export function listensTo(events: readonly string[], type: string, action: string): boolean {
  return events.includes(type) || events.includes(`${type}:${action}`);
}

import { expandHome } from "../../infra/home-path.js";
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { resolveBundledSkillsDir } from "./bundled-skills-dir.js";
import { parseSkillFile } from "./parse-skill.js";
import type { DiscoveredSkill, SkillSource } from "./skill-types.js";
import { LRUCache } from "lru-cache";

/** OpenClaw's discovery limits (see docs/skills.md): a runaway folder cannot stall start-up. */
export const MAX_CANDIDATES_PER_ROOT = 300;
export const MAX_SKILLS_LOADED_PER_SOURCE = 200;
export const MAX_SKILL_FILE_BYTES = 256_000;

export interface SkillRoot {
  dir: string;
  source: SkillSource;
}

export interface DiscoverSkillsOptions {
  workspaceDir: string;
  stateDir: string;
  /** Plugin skill folders and `skills.load.extraDirs`, lowest precedence, first listed wins. */
  extraDirs?: readonly string[];
  /** The package's `skills/` folder; located automatically when undefined, none when null. */
  bundledDir?: string | null;
  /** HOME, to find `~/.agents/skills`. */
  env?: NodeJS.ProcessEnv;
  /** `skills.load.allowSymlinkTargets`: folders a skill symlinked from any root may resolve into. */
  allowSymlinkTargets?: readonly string[];
}

export interface DiscoveredSkills {
  /** In precedence order: by source, then by folder name within a source. */
  skills: DiscoveredSkill[];
  /** Skills hidden by a same-named skill of higher precedence. */
  overridden: { name: string; filePath: string; by: string }[];
  warnings: string[];
}

/** Every place skills are read from, highest precedence first (see docs/skills.md, "Where skills come from"). */
export function skillRoots(options: DiscoverSkillsOptions): SkillRoot[] {
  const env = options.env ?? process.env;
  const home = env.HOME?.trim() || os.homedir();
  const stateDir = path.resolve(options.stateDir);
  const roots: SkillRoot[] = [
    { dir: path.join(options.workspaceDir, "skills"), source: "workspace" },
    { dir: path.join(options.workspaceDir, ".agents", "skills"), source: "workspace-agents" },
  ];
  // ~/.agents/skills is shared with other agent tools; an isolated state dir (a profile, a test)
  // must not pick it up, so it only counts with the default ~/.openclaw.
  if (stateDir === path.join(home, ".openclaw")) roots.push({ dir: path.join(home, ".agents", "skills"), source: "personal-agents" });
  roots.push({ dir: path.join(stateDir, "skills"), source: "managed" });
  const bundled = options.bundledDir === undefined ? resolveBundledSkillsDir() : options.bundledDir;
  if (bundled) roots.push({ dir: bundled, source: "bundled" });
  for (const extra of options.extraDirs ?? []) roots.push({ dir: path.resolve(expandHome(extra, home)), source: "extra" });
  // The same folder listed twice (a workspace inside the state dir, say) is scanned once.
  const seen = new Set<string>();
  return roots.filter((root) => {
    const key = path.resolve(root.dir);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Candidate = { skill: DiscoveredSkill } | { warning: string } | null;

async function loadCandidate(rootReal: string, root: SkillRoot, folder: string, trustedTargets: readonly string[]): Promise<Candidate> {
  const filePath = path.join(root.dir, folder, "SKILL.md");
  let real: string;
  try {
    real = await fs.realpath(filePath);
  } catch {
    return null; // A folder without SKILL.md is not a skill; nothing to report.
  }
  // A symlink may point anywhere; a skill is only trusted from inside the folder it was found in,
  // or inside a target the config trusts (`skills.load.allowSymlinkTargets`).
  if (!isInside(real, rootReal) && !trustedTargets.some((target) => isInside(real, target))) {
    return { warning: `${filePath}: skipped, it resolves outside ${root.dir} (trust its target with skills.load.allowSymlinkTargets)` };
  }
  const stat = await fs.stat(real);
  if (!stat.isFile()) return null;
  if (stat.size > MAX_SKILL_FILE_BYTES) {
    return { warning: `${filePath}: skipped, ${stat.size} bytes is over the ${MAX_SKILL_FILE_BYTES}-byte limit` };
  }
  const key = `${real}\0${filePath}\0${root.source}`;
  const version = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  // A file modified in the last moments may change again without its mtime moving (timestamps
  // are coarse: a few ms on Linux, 1–2 s on some filesystems), so it is read every time.
  const settled = Date.now() - stat.mtimeMs > SETTLED_AFTER_MS;
  const known = parsedFiles.get(key);
  if (settled && known?.version === version) return known.candidate;
  const parsed = parseSkillFile(await fs.readFile(real, "utf8"), filePath, root.source);
  const candidate: Candidate = "error" in parsed ? { warning: `${filePath}: skipped, ${parsed.error}` } : parsed;
  parsedFiles.delete(key);
  if (settled) {
    parsedFiles.set(key, { version, candidate });
  }
  return candidate;
}

/**
 * Parsed SKILL.md files by path, with the file version (inode, size, mtime) they were parsed from.
 * Skills are discovered for every turn's prompt; a file's stat is cheap, while reading it and
 * parsing its YAML front matter is not, so a file is parsed again only when it changes. An edited
 * file changes its version and is read again. Candidates are shared: callers never mutate them.
 */
const parsedFiles = new LRUCache<string, { version: string; candidate: Candidate }>({ max: 2_000 });
const SETTLED_AFTER_MS = 2_000;

function isInside(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** The real paths of `skills.load.allowSymlinkTargets` (`~/` expanded); one that does not exist trusts nothing. */
async function realTargets(targets: readonly string[], home: string): Promise<string[]> {
  const reals = await Promise.all(targets.map((target) => fs.realpath(path.resolve(expandHome(target.trim(), home))).catch(() => undefined)));
  return reals.filter((real): real is string => real !== undefined);
}

/** One root's skills: `<root>/<folder>/SKILL.md`, folders in name order for a stable result. */
async function scanRoot(root: SkillRoot, warnings: string[], trustedTargets: readonly string[]): Promise<DiscoveredSkill[]> {
  let entries: Dirent[];
  let rootReal: string;
  try {
    rootReal = await fs.realpath(root.dir);
    entries = await fs.readdir(rootReal, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push(`${root.dir}: skills folder not readable (${code ?? error})`);
    return [];
  }
  const folders = entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (folders.length > MAX_CANDIDATES_PER_ROOT) {
    warnings.push(`${root.dir}: ${folders.length} folders, only the first ${MAX_CANDIDATES_PER_ROOT} are scanned`);
  }
  const candidates = await Promise.all(
    folders
      .slice(0, MAX_CANDIDATES_PER_ROOT)
      .map((folder) =>
        loadCandidate(rootReal, root, folder, trustedTargets).catch((error: Error): Candidate => ({ warning: `${path.join(root.dir, folder)}: skipped, ${error.message}` })),
      ),
  );

  const skills: DiscoveredSkill[] = [];
  const names = new Map<string, string>();
  for (const candidate of candidates) {
    if (!candidate) continue;
    if ("warning" in candidate) {
      warnings.push(candidate.warning);
      continue;
    }
    const { skill } = candidate;
    const first = names.get(skill.name);
    if (first) {
      warnings.push(`${skill.filePath}: skipped, skill "${skill.name}" is already defined by ${first}`);
      continue;
    }
    if (skills.length >= MAX_SKILLS_LOADED_PER_SOURCE) {
      warnings.push(`${root.dir}: more than ${MAX_SKILLS_LOADED_PER_SOURCE} skills, the rest are ignored`);
      break;
    }
    names.set(skill.name, skill.filePath);
    skills.push(skill);
  }
  return skills;
}

/**
 * Finds every skill an agent may be offered. A bad SKILL.md is skipped with a warning, never
 * thrown: one broken third-party skill must not take the agent down.
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<DiscoveredSkills> {
  const roots = skillRoots(options);
  const env = options.env ?? process.env;
  const trustedTargets = await realTargets(options.allowSymlinkTargets ?? [], env.HOME?.trim() || os.homedir());
  const perRootWarnings = roots.map((): string[] => []);
  const perRoot = await Promise.all(roots.map((root, i) => scanRoot(root, perRootWarnings[i]!, trustedTargets)));

  const skills: DiscoveredSkill[] = [];
  const overridden: DiscoveredSkills["overridden"] = [];
  const winners = new Map<string, DiscoveredSkill>();
  for (const found of perRoot) {
    for (const skill of found) {
      const winner = winners.get(skill.name);
      if (winner) {
        overridden.push({ name: skill.name, filePath: skill.filePath, by: winner.filePath });
        continue;
      }
      winners.set(skill.name, skill);
      skills.push(skill);
    }
  }
  return { skills, overridden, warnings: perRootWarnings.flat() };
}

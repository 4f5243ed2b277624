import fs from "node:fs";
import path from "node:path";
import { listAgentConfigs } from "../../agents/agent-config.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { loadConfig, resolveConfigPath, resolveStateDir } from "../../config/index.js";
import { gatewayStatePaths } from "../../infra/paths.js";
import { CliError } from "../output.js";
import { externalArchivePath, STATE_ASSET, WORKSPACES_DIR } from "./archive-layout.js";
import { isPathInside, realPathAllowingMissing } from "../../infra/real-path.js";
import type { AssetKind, ManifestAgent, ManifestWorkspace } from "./manifest.js";

export interface BackupOptions {
  onlyConfig: boolean;
  includeWorkspace: boolean;
}

/** A folder (or, for a config file outside every folder, a file) the backup walks. */
export interface BackupRoot {
  kind: AssetKind;
  /** Canonical: symbolic links resolved. */
  sourcePath: string;
  archivePath: string;
  directory: boolean;
  /** Canonical paths inside it the walk leaves out, each with the reason it reports (null: archived as another asset, nothing to report). */
  excluded: Map<string, string | null>;
}

/**
 * A file captured by name rather than met by the walk: the config file and its `$include`s. Its
 * bytes are read through a symbolic link (a config linked from a dotfiles repository is still
 * backed up), and it stays in the archive even under a folder the walk leaves out.
 */
export interface PinnedFile {
  /** Where it is named: its folder canonical, its own name as it is. */
  location: string;
  archivePath: string;
}

export interface BackupSources {
  options: BackupOptions;
  stateDir: string;
  configPath: string | null;
  /** Where the config file is in the archive; null without one. */
  configArchivePath: string | null;
  includedConfigFiles: string[];
  roots: BackupRoot[];
  pinned: PinnedFile[];
  agents: ManifestAgent[];
  workspaces: ManifestWorkspace[];
}

/** Entries at the top of the state dir that belong to the running gateway's process, not to its state. */
function stateRootExclusions(stateDir: string): Map<string, string | null> {
  const files = gatewayStatePaths(stateDir);
  return new Map([
    [files.lockFile, "the running gateway's lock"],
    [files.lockDir, "the running gateway's lock"],
    [files.pidFile, "the running gateway's pid file"],
    [files.logDir, "logs are not backed up"],
  ]);
}

/** Where a file is named, for the archive: its folder canonical, its own name kept (it may be a symbolic link). */
function fileLocation(file: string): string {
  return path.join(realPathAllowingMissing(path.dirname(path.resolve(file))), path.basename(file));
}

function archivePathIn(root: BackupRoot, location: string): string {
  const relative = path.relative(root.sourcePath, location);
  return relative ? `${root.archivePath}/${relative.split(path.sep).join("/")}` : root.archivePath;
}

/**
 * What `backup create` takes, from the state dir, the config and the agents' workspaces:
 * - the state dir, without the running gateway's lock, pid file and logs;
 * - the config file and the files its `$include`s read, by name (inside the state dir or a
 *   workspace they sit at their place there, else under `payload/external/`);
 * - each agent's workspace: inside the state dir it is part of it, outside it is an asset of its
 *   own (`payload/workspaces/<first agent>`), and a workspace inside another is part of that one.
 *   With `--no-include-workspace` none is taken, not even one inside the state dir.
 * `--only-config` takes the config file alone, without reading it.
 */
export function resolveBackupSources(options: BackupOptions, env: NodeJS.ProcessEnv): BackupSources {
  const stateDir = resolveStateDir(env);
  const configPath = resolveConfigPath(stateDir, env);
  if (options.onlyConfig) return onlyConfigSources(options, stateDir, configPath);

  if (!fs.existsSync(stateDir)) throw new CliError(`no state dir at ${stateDir}: nothing to back up (set OPENCLAW_STATE_DIR, or --profile, to the one to back up)`);
  const loaded = loadConfig({ stateDir, env });
  const stateReal = realPathAllowingMissing(path.resolve(stateDir));
  const state: BackupRoot = { kind: "state", sourcePath: stateReal, archivePath: STATE_ASSET, directory: true, excluded: stateRootExclusions(stateReal) };
  const roots: BackupRoot[] = [state];

  const agents = listAgentConfigs(loaded.config).map((agent) => ({
    id: agent.id,
    default: agent.isDefault,
    workspace: resolveWorkspaceDir(loaded.config, agent.id, stateDir, env),
  }));
  const workspaces = planWorkspaces(agents, state, roots, options);

  const includedConfigFiles = (loaded.includedFiles ?? []).map((file) => file.path);
  const pinned: PinnedFile[] = [];
  for (const file of [...(loaded.path ? [loaded.path] : []), ...includedConfigFiles]) {
    const location = fileLocation(file);
    const holder = roots.find((root) => root.directory && isPathInside(root.sourcePath, location));
    if (holder) pinned.push({ location, archivePath: archivePathIn(holder, location) });
    else if (!pinned.some((p) => p.location === location)) {
      const archivePath = externalArchivePath(location);
      roots.push({ kind: "config", sourcePath: location, archivePath, directory: false, excluded: new Map() });
      pinned.push({ location, archivePath });
    }
  }
  const configArchivePath = loaded.path ? (pinned[0]?.archivePath ?? null) : null;
  return { options, stateDir, configPath: loaded.path, configArchivePath, includedConfigFiles, roots, pinned, agents, workspaces };
}

function onlyConfigSources(options: BackupOptions, stateDir: string, configPath: string | null): BackupSources {
  if (!configPath) throw new CliError(`no config file to back up: none in ${stateDir} (openclaw.yaml, .yml, .json or .json5) and OPENCLAW_CONFIG_PATH is not set`);
  if (!fs.existsSync(configPath)) throw new CliError(`config file not found: ${configPath}`);
  const location = fileLocation(configPath);
  const stateReal = realPathAllowingMissing(path.resolve(stateDir));
  const archivePath = isPathInside(stateReal, location) ? `${STATE_ASSET}/${path.relative(stateReal, location).split(path.sep).join("/")}` : externalArchivePath(location);
  return {
    options,
    stateDir,
    configPath,
    configArchivePath: archivePath,
    includedConfigFiles: [],
    roots: [{ kind: "config", sourcePath: location, archivePath, directory: false, excluded: new Map() }],
    pinned: [{ location, archivePath }],
    agents: [],
    workspaces: [],
  };
}

/**
 * Gives each workspace its place: part of the state dir, part of another workspace, an asset of
 * its own (added to `roots`), or left out. Outer folders are placed first, so a workspace inside
 * another is found inside it. A state dir inside a workspace stays its own asset: the workspace's
 * walk leaves it out.
 */
function planWorkspaces(agents: ManifestAgent[], state: BackupRoot, roots: BackupRoot[], options: BackupOptions): ManifestWorkspace[] {
  const byPath = new Map<string, string[]>();
  for (const agent of agents) {
    const real = realPathAllowingMissing(path.resolve(agent.workspace));
    byPath.set(real, [...(byPath.get(real) ?? []), agent.id]);
  }
  const ordered = [...byPath.entries()].sort(([a], [b]) => a.length - b.length);
  const workspaces: ManifestWorkspace[] = [];
  for (const [sourcePath, ids] of ordered) {
    const inState = isPathInside(state.sourcePath, sourcePath);
    if (!fs.existsSync(sourcePath)) {
      workspaces.push({ agents: ids, sourcePath, archivePath: null, excluded: "missing" });
    } else if (!options.includeWorkspace) {
      if (inState && sourcePath !== state.sourcePath) state.excluded.set(sourcePath, "workspace (--no-include-workspace)");
      workspaces.push({ agents: ids, sourcePath, archivePath: null, excluded: "--no-include-workspace" });
    } else {
      const holder = roots.find((root) => isPathInside(root.sourcePath, sourcePath));
      if (holder) {
        workspaces.push({ agents: ids, sourcePath, archivePath: archivePathIn(holder, sourcePath) });
        continue;
      }
      const archivePath = `${WORKSPACES_DIR}/${ids[0]}`;
      const excluded = new Map<string, string | null>();
      if (isPathInside(sourcePath, state.sourcePath)) excluded.set(state.sourcePath, null);
      roots.push({ kind: "workspace", sourcePath, archivePath, directory: true, excluded });
      workspaces.push({ agents: ids, sourcePath, archivePath });
    }
  }
  return workspaces;
}

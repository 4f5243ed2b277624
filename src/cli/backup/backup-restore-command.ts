import path from "node:path";
import { resolveConfigPath, resolveStateDir } from "../../config/index.js";
import { CliError, printJson } from "../output.js";
import { STATE_ASSET } from "./archive-layout.js";
import type { Manifest } from "./manifest.js";
import { restoreArchive, restoredPath } from "./restore-archive.js";

/** `openclaw backup restore <archive> --target <dir>`: verify, restore into a new folder, and say how to run on it. */
export async function backupRestoreCommand(archive: string, flags: { target?: string; json?: boolean }): Promise<void> {
  if (!flags.target?.trim()) throw new CliError("--target <dir> is required: a new or empty folder to restore into (a restore never writes over the live state dir)");
  const target = path.resolve(flags.target);
  const { manifest } = await restoreArchive(path.resolve(archive), target, resolveStateDir(process.env));
  const places = restoredPlaces(manifest, target);
  if (flags.json) return printJson({ ok: true, archivePath: path.resolve(archive), target, ...places, run: runCommand(places) });
  const lines = [
    `Restored ${path.resolve(archive)} into ${target} (verified first: manifest, SHA-256 of every file, SQLite integrity).`,
    ...(places.stateDir ? [`  state dir  ${places.stateDir}   (was ${manifest.paths.stateDir})`] : []),
    ...(places.configPath ? [`  config     ${places.configPath}   (was ${manifest.paths.configPath})`] : []),
    ...places.workspaces.map((w) => `  workspace  ${w.restoredAt}   (agents ${w.agents.join(", ")}; was ${w.sourcePath})`),
    "",
    "To run a gateway on it (stop the one using the original state first):",
    `  ${runCommand(places)}`,
    "A config that names a workspace by its absolute path still points at the original folder: point",
    "agents.defaults.workspace / agents.entries.<id>.workspace at the restored copy, or move the copy back.",
    "Restoring is going back in time: channel logins, pending approvals and delivery state are as they were then.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

interface RestoredPlaces {
  stateDir: string | null;
  /** The config file, when it is not in the state dir under one of the names the gateway looks for. */
  configPath: string | null;
  workspaces: { agents: string[]; sourcePath: string; restoredAt: string }[];
}

function restoredPlaces(manifest: Manifest, target: string): RestoredPlaces {
  const { configArchivePath } = manifest.paths;
  const hasState = manifest.assets.some((asset) => asset.kind === "state") || configArchivePath?.startsWith(`${STATE_ASSET}/`) === true;
  const stateDir = hasState ? restoredPath(target, STATE_ASSET) : null;
  const config = configArchivePath ? restoredPath(target, configArchivePath) : null;
  // The gateway finds the config by itself when it is the file it looks for first in the state dir.
  const found = stateDir ? resolveConfigPath(stateDir, {}) : null;
  return {
    stateDir,
    configPath: config && config !== found ? config : null,
    workspaces: manifest.workspaces.flatMap((w) => (w.archivePath ? [{ agents: w.agents, sourcePath: w.sourcePath, restoredAt: restoredPath(target, w.archivePath) }] : [])),
  };
}

function runCommand(places: RestoredPlaces): string {
  const env = [...(places.stateDir ? [`OPENCLAW_STATE_DIR=${places.stateDir}`] : []), ...(places.configPath ? [`OPENCLAW_CONFIG_PATH=${places.configPath}`] : [])];
  return `${env.join(" ")} openclaw gateway run`.trim();
}

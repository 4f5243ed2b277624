import fs from "node:fs";
import { packageVersion } from "../../infra/version.js";
import { CliError, printJson } from "../output.js";
import { archiveRootName } from "./archive-layout.js";
import { partialArchivePath, publishArchive, resolveArchivePath } from "./archive-output.js";
import { formatCreateReport, formatDryRun, summarizeAssets } from "./backup-report.js";
import { type BackupSources, resolveBackupSources } from "./backup-sources.js";
import { planBackup } from "./backup-walk.js";
import { MANIFEST_FORMAT, MANIFEST_SCHEMA_VERSION, type Manifest } from "./manifest.js";
import { verifyArchive } from "./verify-archive.js";
import { writeArchive } from "./write-archive.js";

export interface BackupCreateFlags {
  output?: string;
  dryRun?: boolean;
  verify?: boolean;
  /** False with `--no-include-workspace`. */
  includeWorkspace?: boolean;
  onlyConfig?: boolean;
  json?: boolean;
}

/** `openclaw backup create`: plan, then (unless `--dry-run`) write, publish and with `--verify` check the archive. */
export async function backupCreateCommand(flags: BackupCreateFlags): Promise<void> {
  if (flags.dryRun && flags.verify) throw new CliError("--verify checks the archive written, and --dry-run writes none: use one or the other");
  const onlyConfig = flags.onlyConfig === true;
  const sources = resolveBackupSources({ onlyConfig, includeWorkspace: flags.includeWorkspace !== false && !onlyConfig }, process.env);
  const now = new Date();
  const archivePath = resolveArchivePath(flags.output, now, sources.roots, process.env);
  const plan = planBackup(sources);

  if (flags.dryRun) {
    const files = plan.entries.filter((entry) => entry.type === "file");
    const report = {
      ok: true,
      dryRun: true,
      archivePath,
      stateDir: sources.stateDir,
      configPath: sources.configPath,
      assets: summarizeAssets(sources, plan.entries),
      workspaces: sources.workspaces,
      entries: plan.entries.map(({ sourcePath, archivePath: at, type, ...rest }) => ({
        type,
        sourcePath,
        archivePath: at,
        ...("size" in rest ? { size: rest.size, capture: rest.capture } : {}),
      })),
      skipped: plan.skipped,
      files: files.length,
      bytes: files.reduce((sum, entry) => sum + entry.size, 0),
    };
    if (flags.json) return printJson(report);
    return void process.stdout.write(formatDryRun(report, plan.entries));
  }

  const partial = partialArchivePath(archivePath);
  let written: Awaited<ReturnType<typeof writeArchive>>;
  try {
    written = await writeArchive(partial, plan.entries, manifestBase(sources, now));
    publishArchive(partial, archivePath);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  const verified = flags.verify ? await verifyArchive(archivePath) : undefined;
  const { manifest } = written;
  const files = manifest.entries.filter((entry) => entry.type === "file");
  const report = {
    ok: true,
    dryRun: false,
    archivePath,
    mode: "0600",
    archiveRoot: manifest.archiveRoot,
    createdAt: manifest.createdAt,
    archiveBytes: fs.statSync(archivePath).size,
    stateDir: sources.stateDir,
    configPath: sources.configPath,
    assets: summarizeAssets(sources, manifest.entries),
    workspaces: manifest.workspaces,
    skipped: [...plan.skipped, ...written.skipped],
    files: files.length,
    bytes: files.reduce((sum, entry) => sum + entry.size, 0),
    sqliteSnapshots: files.filter((entry) => entry.capture === "sqlite").map((entry) => entry.archivePath),
    ...(verified ? { verified: { files: verified.files, bytes: verified.bytes, sqliteChecked: verified.sqliteChecked } } : {}),
  };
  if (flags.json) return printJson(report);
  process.stdout.write(formatCreateReport(report));
}

function manifestBase(sources: BackupSources, now: Date): Omit<Manifest, "entries"> {
  return {
    schemaVersion: MANIFEST_SCHEMA_VERSION,
    format: MANIFEST_FORMAT,
    archiveRoot: archiveRootName(now),
    createdAt: now.toISOString(),
    gatewayVersion: packageVersion(),
    platform: process.platform,
    nodeVersion: process.version,
    options: sources.options,
    paths: { stateDir: sources.stateDir, configPath: sources.configPath, configArchivePath: sources.configArchivePath, includedConfigFiles: sources.includedConfigFiles },
    assets: sources.roots.map(({ kind, sourcePath, archivePath }) => ({ kind, sourcePath, archivePath })),
    agents: sources.agents,
    workspaces: sources.workspaces,
  };
}

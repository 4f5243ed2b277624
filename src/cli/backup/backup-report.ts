import { formatByteSize } from "../../infra/byte-size.js";
import { archivePathWithin } from "./archive-layout.js";
import type { BackupSources } from "./backup-sources.js";
import type { SkippedPath } from "./backup-walk.js";
import type { AssetKind, ManifestWorkspace } from "./manifest.js";

/** What the backup says about keeping the archive: printed by create, written in docs/security.md. */
export const ARCHIVE_PRIVACY = "mode 0600: it holds your credentials, config and conversations in clear; keep it private, encrypt it before it leaves this machine";

/** What is and is not consistent in an archive taken while the gateway runs (docs/cli.md). */
export const CONSISTENCY_NOTE =
  "Each SQLite database is an online snapshot, consistent on its own; each JSONL file is cut at its last complete line; other files are taken as they are. The archive is not one atomic snapshot across files.";

export interface AssetSummary {
  kind: AssetKind;
  sourcePath: string;
  archivePath: string;
  files: number;
  bytes: number;
}

type Sized = { type: string; archivePath: string; size?: number };

export function summarizeAssets(sources: BackupSources, entries: readonly Sized[]): AssetSummary[] {
  return sources.roots.map(({ kind, sourcePath, archivePath }) => {
    const files = entries.filter((entry) => entry.type === "file" && archivePathWithin(entry.archivePath, archivePath));
    return { kind, sourcePath, archivePath, files: files.length, bytes: files.reduce((sum, entry) => sum + (entry.size ?? 0), 0) };
  });
}

const pad = (text: string, width: number) => text.padEnd(width);
const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

function assetLines(assets: AssetSummary[]): string {
  return assets.map((asset) => `  ${pad(asset.kind, 10)} ${asset.sourcePath} → ${asset.archivePath} (${files(asset.files)}, ${formatByteSize(asset.bytes)})\n`).join("");
}

function workspaceLines(workspaces: ManifestWorkspace[]): string {
  if (workspaces.length === 0) return "";
  const lines = workspaces.map((w) => {
    const where = w.archivePath ? `→ ${w.archivePath}` : `not included (${w.excluded})`;
    return `  ${w.agents.join(", ")}: ${w.sourcePath} ${where}\n`;
  });
  return `Workspaces:\n${lines.join("")}`;
}

function skippedLines(skipped: SkippedPath[]): string {
  if (skipped.length === 0) return "";
  return `Left out:\n${skipped.map((s) => `  ${s.sourcePath}: ${s.reason}\n`).join("")}`;
}

export function formatDryRun(
  report: { archivePath: string; assets: AssetSummary[]; workspaces: ManifestWorkspace[]; skipped: SkippedPath[]; files: number; bytes: number },
  entries: readonly (Sized & { sourcePath: string; capture?: string })[],
): string {
  const lines = entries
    .filter((entry) => entry.type === "file")
    .map(
      (entry) =>
        `  ${pad(formatByteSize(entry.size ?? 0), 10)} ${entry.sourcePath}${entry.capture === "sqlite" ? " (SQLite: online snapshot)" : entry.capture === "jsonl" ? " (up to its last complete line)" : ""}\n`,
    );
  return (
    `Dry run: nothing was written. The archive would be ${report.archivePath} (${ARCHIVE_PRIVACY}).\n` +
    assetLines(report.assets) +
    workspaceLines(report.workspaces) +
    `Files:\n${lines.join("")}` +
    skippedLines(report.skipped) +
    `${files(report.files)}, ${formatByteSize(report.bytes)} (SQLite databases at their current size)\n`
  );
}

export function formatCreateReport(report: {
  archivePath: string;
  archiveBytes: number;
  assets: AssetSummary[];
  workspaces: ManifestWorkspace[];
  skipped: SkippedPath[];
  files: number;
  bytes: number;
  sqliteSnapshots: string[];
  verified?: { files: number; sqliteChecked: string[] };
}): string {
  return (
    `Backup written: ${report.archivePath}\n` +
    `  ${formatByteSize(report.archiveBytes)} compressed from ${files(report.files)}, ${formatByteSize(report.bytes)}; ${ARCHIVE_PRIVACY}\n` +
    assetLines(report.assets) +
    workspaceLines(report.workspaces) +
    skippedLines(report.skipped) +
    `${CONSISTENCY_NOTE}\n` +
    (report.verified
      ? `Verified: ${files(report.verified.files)} match the manifest's sizes and SHA-256; ${report.verified.sqliteChecked.length} SQLite snapshot(s) pass integrity_check.\n`
      : `Check it any time with: openclaw backup verify ${report.archivePath}\n`)
  );
}

/**
 * `manifest.json` at the archive root: what the archive holds and where it came from. Written as
 * the archive's last entry (the sizes and hashes are known only once every file is written); verify
 * and restore check the archive against it.
 */

export const MANIFEST_SCHEMA_VERSION = 1;
export const MANIFEST_FORMAT = "openclaw-clone-backup";

/** How a file was captured: an online SQLite snapshot, a JSONL file up to its last complete line, or the bytes as read. */
export type EntryCapture = "sqlite" | "jsonl" | "file";

export type ManifestEntry =
  | { type: "file"; archivePath: string; sourcePath: string; capture: EntryCapture; size: number; sha256: string; mode: number }
  | { type: "directory"; archivePath: string; sourcePath: string; mode: number }
  | { type: "symlink"; archivePath: string; sourcePath: string; target: string };

export type AssetKind = "state" | "workspace" | "config";

export interface ManifestAsset {
  kind: AssetKind;
  /** The folder or file as found on this machine (absolute, symbolic links resolved). */
  sourcePath: string;
  /** Relative to the archive root, e.g. `payload/state`. */
  archivePath: string;
}

export interface ManifestWorkspace {
  /** The agents that work in it. */
  agents: string[];
  sourcePath: string;
  /** Where its files are in the archive; null when they are not in it (`excluded` says why). */
  archivePath: string | null;
  excluded?: "--no-include-workspace" | "--only-config" | "missing";
}

export interface ManifestAgent {
  id: string;
  default: boolean;
  workspace: string;
}

export interface Manifest {
  schemaVersion: typeof MANIFEST_SCHEMA_VERSION;
  format: typeof MANIFEST_FORMAT;
  archiveRoot: string;
  createdAt: string;
  /** The version of the gateway package that wrote it. */
  gatewayVersion: string;
  platform: string;
  nodeVersion: string;
  options: { onlyConfig: boolean; includeWorkspace: boolean };
  /** `configArchivePath`: where the config file is in the archive (null without one). */
  paths: { stateDir: string; configPath: string | null; configArchivePath: string | null; includedConfigFiles: string[] };
  assets: ManifestAsset[];
  agents: ManifestAgent[];
  workspaces: ManifestWorkspace[];
  entries: ManifestEntry[];
}

/** The manifest may be large (one row per file), but not without bound: a hostile archive could claim anything. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isSize = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** Parses and checks the manifest's shape; throws with the first thing wrong. */
export function parseManifest(text: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("manifest.json is not valid JSON");
  }
  if (!isObject(data)) throw new Error("manifest.json is not an object");
  if (data.format !== MANIFEST_FORMAT) throw new Error(`manifest.json is not an ${MANIFEST_FORMAT} manifest (format: ${JSON.stringify(data.format)})`);
  if (data.schemaVersion !== MANIFEST_SCHEMA_VERSION)
    throw new Error(`unsupported manifest schemaVersion ${JSON.stringify(data.schemaVersion)} (this gateway reads ${MANIFEST_SCHEMA_VERSION})`);
  for (const key of ["archiveRoot", "createdAt", "gatewayVersion"] as const) {
    if (!isString(data[key]) || !data[key]) throw new Error(`manifest.json has no ${key}`);
  }
  if (!isObject(data.paths) || !isString(data.paths.stateDir)) throw new Error("manifest.json has no paths.stateDir");
  for (const key of ["assets", "agents", "workspaces", "entries"] as const) {
    if (!Array.isArray(data[key])) throw new Error(`manifest.json has no ${key} list`);
  }
  for (const asset of data.assets as unknown[]) {
    if (!isObject(asset) || !["state", "workspace", "config"].includes(asset.kind as string) || !isString(asset.sourcePath) || !isString(asset.archivePath)) {
      throw new Error(`manifest.json has a malformed asset: ${JSON.stringify(asset)}`);
    }
  }
  if (data.paths.configArchivePath !== null && !isString(data.paths.configArchivePath)) throw new Error("manifest.json has no paths.configArchivePath");
  for (const workspace of data.workspaces as unknown[]) {
    const ok =
      isObject(workspace) &&
      isString(workspace.sourcePath) &&
      (workspace.archivePath === null || isString(workspace.archivePath)) &&
      Array.isArray(workspace.agents) &&
      workspace.agents.every(isString);
    if (!ok) throw new Error(`manifest.json has a malformed workspace: ${JSON.stringify(workspace)}`);
  }
  for (const entry of data.entries as unknown[]) checkEntry(entry);
  return data as unknown as Manifest;
}

function checkEntry(entry: unknown): void {
  const bad = () => new Error(`manifest.json has a malformed entry: ${JSON.stringify(entry)}`);
  if (!isObject(entry) || !isString(entry.archivePath) || !isString(entry.sourcePath)) throw bad();
  switch (entry.type) {
    case "file":
      if (!isSize(entry.size) || !isString(entry.sha256) || !/^[0-9a-f]{64}$/.test(entry.sha256) || !["sqlite", "jsonl", "file"].includes(entry.capture as string)) throw bad();
      return;
    case "directory":
      return;
    case "symlink":
      if (!isString(entry.target)) throw bad();
      return;
    default:
      throw bad();
  }
}

import path from "node:path";
import { formatByteSize } from "../../infra/byte-size.js";
import { printJson } from "../output.js";
import { verifyArchive } from "./verify-archive.js";

/** `openclaw backup verify <archive>`: exit 0 with what the archive holds, or exit 1 with the first reason it cannot be trusted. */
export async function backupVerifyCommand(archive: string, flags: { json?: boolean }): Promise<void> {
  const verified = await verifyArchive(path.resolve(archive));
  const { manifest } = verified;
  if (flags.json) {
    return printJson({
      ok: true,
      archivePath: verified.file,
      archiveRoot: manifest.archiveRoot,
      createdAt: manifest.createdAt,
      gatewayVersion: manifest.gatewayVersion,
      stateDir: manifest.paths.stateDir,
      assets: manifest.assets,
      workspaces: manifest.workspaces,
      files: verified.files,
      bytes: verified.bytes,
      sqliteChecked: verified.sqliteChecked,
    });
  }
  process.stdout.write(
    `Archive OK: ${verified.file}\n` +
      `  created ${manifest.createdAt} by openclaw-clone ${manifest.gatewayVersion} from ${manifest.paths.stateDir}\n` +
      `  ${verified.files} files, ${formatByteSize(verified.bytes)}: one root manifest, safe paths, every entry with the manifest's size and SHA-256\n` +
      `  ${verified.sqliteChecked.length} SQLite snapshot(s) pass integrity_check${verified.sqliteChecked.length ? `: ${verified.sqliteChecked.join(", ")}` : ""}\n`,
  );
}

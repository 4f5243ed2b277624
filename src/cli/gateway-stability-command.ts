import path from "node:path";
import { resolveStateDir } from "../config/index.js";
import type { StabilitySnapshot } from "../infra/stability/stability-event.js";
import { readLatestStabilityBundle, readStabilityBundle } from "../infra/stability/stability-bundle.js";
import { normalizeStabilityQuery, selectFromSnapshot } from "../infra/stability/stability-snapshot.js";
import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { renderStabilityBundle, renderStabilitySnapshot } from "./stability-render.js";

export interface StabilityFlags extends ClientFlags {
  limit?: string;
  type?: string;
  sinceSeq?: string;
  /** `latest` (or the bare flag) for the newest bundle in `<stateDir>/logs/stability/`, else a bundle file. */
  bundle?: string | boolean;
  /** OpenClaw's support .zip (`--export`, `--output`): not built here, refused. */
  export?: boolean;
  output?: string;
}

/** The CLI shows the last 25 events unless `--limit` says otherwise. */
const CLI_DEFAULT_LIMIT = 25;

/**
 * `openclaw gateway stability`: the running gateway's stability stream (`diagnostics.stability`),
 * or with `--bundle` one a failed gateway left on disk, read without a gateway.
 */
export async function gatewayStabilityCommand(flags: StabilityFlags): Promise<void> {
  if (flags.export || flags.output !== undefined) {
    throw new CliError("--export and --output (OpenClaw's support diagnostics .zip) are not supported: print a bundle with --bundle latest --json, or the live stream with --json");
  }
  let query: ReturnType<typeof normalizeStabilityQuery>;
  try {
    query = normalizeStabilityQuery({ limit: flags.limit, type: flags.type, sinceSeq: flags.sinceSeq }, CLI_DEFAULT_LIMIT);
  } catch (err) {
    throw new CliError(`--${(err as Error).message.replace(/^sinceSeq/, "since-seq")}`);
  }
  if (flags.bundle !== undefined && flags.bundle !== false) return showBundle(flags.bundle === true ? "latest" : flags.bundle, query, flags.json === true);
  const client = await connectClient(flags);
  try {
    const snapshot = (await client.call("diagnostics.stability", query, { timeoutMs: resolveClientTarget(flags).timeoutMs })) as StabilitySnapshot;
    if (flags.json) return printJson(snapshot);
    process.stdout.write(`${renderStabilitySnapshot(snapshot).join("\n")}\n`);
  } finally {
    client.close();
  }
}

function showBundle(target: string, query: ReturnType<typeof normalizeStabilityQuery>, json: boolean): void {
  const read = target === "latest" ? readLatestStabilityBundle(resolveStateDir(process.env)) : readStabilityBundle(path.resolve(target));
  if (read.status === "missing") throw new CliError(`no stability bundles in ${read.dir}: a gateway writes one only when it dies, misses its shutdown deadline or fails to start`);
  if (read.status === "failed") throw new CliError(read.error);
  const snapshot = selectFromSnapshot(read.bundle.snapshot, query);
  if (json) return printJson({ path: read.path, mtimeMs: read.mtimeMs, bundle: { ...read.bundle, snapshot } });
  process.stdout.write(`${renderStabilityBundle(read.path, read.bundle, snapshot).join("\n")}\n`);
}

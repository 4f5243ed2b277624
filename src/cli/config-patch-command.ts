import fs from "node:fs";
import JSON5 from "json5";
import {
  ConfigError,
  defaultConfigPathForWrite,
  formatKeyPath,
  hashConfigBytes,
  parseKeyPath,
  patchConfigFile,
  resolveConfigPath,
  resolveStateDir,
  restartRequiredPaths,
} from "../config/index.js";
import { CliError, printJson } from "./output.js";

export interface ConfigPatchFlags {
  file?: string;
  stdin?: boolean;
  replacePath?: string[];
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `openclaw config patch (--file <path> | --stdin)`: a JSON5 merge patch (objects merge, lists
 * and scalars replace, `null` deletes) applied to the config file in one validated, atomic
 * write; nothing is written when the patch or its result is invalid, or with --dry-run.
 */
export async function configPatchCommand(flags: ConfigPatchFlags): Promise<void> {
  if (Boolean(flags.file) === Boolean(flags.stdin)) throw new CliError("give the patch with one of --file <path> or --stdin");
  const source = flags.stdin ? "--stdin" : `--file ${flags.file}`;
  const text = flags.stdin ? await readStdin() : readPatchFile(flags.file!);
  const patch = parsePatch(text, source);
  const replaceWholePaths = (flags.replacePath ?? []).map((p) => replacePathIn(patch, p));

  const stateDir = resolveStateDir(process.env);
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  let result: ReturnType<typeof patchConfigFile>;
  try {
    result = patchConfigFile(file, text, { baseHash: currentHash(file), env: process.env, replaceLists: true, replaceWholePaths, dryRun: flags.dryRun });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`${flags.dryRun ? "dry run failed" : "not saved"}: ${err.message}`);
    throw err;
  }
  const restart = restartRequiredPaths(result.changedPaths);
  if (flags.json) return printJson({ ok: true, dryRun: flags.dryRun === true, file, changedPaths: result.changedPaths, restartRequiredPaths: restart, warnings: result.warnings });
  const count = result.changedPaths.length;
  const changes = count === 0 ? "no value" : `${count} path(s): ${listed(result.changedPaths)}`;
  process.stdout.write(flags.dryRun ? `Dry run: the patch is valid and would change ${changes} (${file} not written)\n` : `Patched ${file}: changed ${changes}\n`);
  if (restart.length > 0) process.stdout.write(`A running gateway applies ${listed(restart)} only after a restart (openclaw gateway restart)\n`);
  for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
}

function readPatchFile(path: string): string {
  try {
    return fs.readFileSync(path, "utf8");
  } catch (err) {
    throw new CliError(`cannot read --file ${path}: ${(err as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parsePatch(text: string, source: string): Record<string, unknown> {
  let patch: unknown;
  try {
    patch = JSON5.parse(text);
  } catch (err) {
    throw new CliError(`${source} is not valid JSON5: ${(err as Error).message.replace(/^JSON5: /, "")}`);
  }
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw new CliError(`${source} must hold a JSON5 object: config keys and their values`);
  if (Object.keys(patch).length === 0) throw new CliError(`${source} holds an empty object: nothing to change`);
  return patch as Record<string, unknown>;
}

/** A `--replace-path` in the patch's key-path form; it must name an entry of the patch's objects. */
function replacePathIn(patch: Record<string, unknown>, text: string): string {
  let segments: string[];
  try {
    segments = parseKeyPath(text).map(String);
  } catch (err) {
    throw new CliError(`--replace-path: ${(err as Error).message}`);
  }
  let node: unknown = patch;
  for (const segment of segments) {
    const found = node !== null && typeof node === "object" && !Array.isArray(node) && Object.hasOwn(node, segment);
    if (!found) throw new CliError(`--replace-path ${text} names nothing in the patch: it must be a key path of the patch's objects`);
    node = (node as Record<string, unknown>)[segment];
  }
  if (segments.length === 0) throw new CliError("--replace-path: give a key path (the whole config is not replaced by a patch)");
  return formatKeyPath(segments);
}

/** The hash the write is made against: it fails if the file changes meanwhile (a file that does not parse is refused by patchConfigFile). */
function currentHash(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(`cannot read the config file ${file}: ${(err as Error).message}`);
  }
  return hashConfigBytes(bytes);
}

function listed(paths: string[]): string {
  return paths.length <= 8 ? paths.join(", ") : `${paths.slice(0, 8).join(", ")} and ${paths.length - 8} more`;
}

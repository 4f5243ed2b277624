import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expandHome } from "../infra/home-path.js";
import { ConfigError } from "./errors.js";
import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "./key-path.js";
import { hashConfigBytes } from "./config-hash.js";
import { parseConfigText } from "./parse.js";

const INCLUDE_KEY = "$include";
const MAX_DEPTH = 10;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_PATH_LENGTH = 4096;

/** A file an `$include` read, with the sha256 of the bytes read (a change to it is a config change). */
export interface IncludedFile {
  path: string;
  hash: string;
}

interface Walk {
  /** The file whose text holds the `$include`: relative paths start at its folder. */
  file: string;
  /** The files being read, outermost first: one read again is a cycle. */
  chain: string[];
  roots: string[];
  read: IncludedFile[];
}

/**
 * OpenClaw's `$include`: a file's contents in place of the object that names it (a list of files
 * is deep-merged in order: objects merge, lists concatenate, later values win), with the object's
 * other keys merged over them. Included files may include others, 10 deep. Every file must be
 * inside the config file's folder (or a folder of `OPENCLAW_INCLUDE_ROOTS`), also after symlinks,
 * a regular file with one link, at most 2 MiB. Throws ConfigError at the `$include`'s key path.
 */
export function expandIncludes(data: unknown, configPath: string, env: NodeJS.ProcessEnv): { data: unknown; files: IncludedFile[] } {
  const file = path.resolve(configPath);
  const walk: Walk = { file, chain: [file], roots: includeRoots(file, env), read: [] };
  return { data: expand(data, [], walk), files: walk.read };
}

/** Whether the data names an `$include` anywhere. */
export function hasIncludes(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasIncludes);
  return isPlainObject(value) && (Object.hasOwn(value, INCLUDE_KEY) || Object.values(value).some(hasIncludes));
}

function includeRoots(configFile: string, env: NodeJS.ProcessEnv): string[] {
  const extra = (env.OPENCLAW_INCLUDE_ROOTS ?? "")
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.resolve(expandHome(entry, env.HOME ?? os.homedir())));
  return [path.dirname(configFile), ...extra];
}

function expand(value: unknown, at: KeyPathSegment[], walk: Walk): unknown {
  if (Array.isArray(value)) return value.map((item, index) => expand(item, [...at, index], walk));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== INCLUDE_KEY) setOwnProperty(out, key, expand(child, [...at, key], walk));
  }
  if (!Object.hasOwn(value, INCLUDE_KEY)) return out;
  const fail = (message: string): never => {
    throw ConfigError.fromIssues([{ path: formatKeyPath([...at, INCLUDE_KEY]), message }]);
  };
  const spec = value[INCLUDE_KEY];
  const names =
    typeof spec === "string"
      ? [spec]
      : Array.isArray(spec) && spec.every((item) => typeof item === "string")
        ? (spec as string[])
        : fail("expected a file path or a list of file paths");
  const parts = names.map((name) => readIncluded(name, at, walk, fail));
  const included = parts.length === 1 ? parts[0] : parts.reduce(deepMerge, {});
  if (Object.keys(out).length === 0) return included;
  if (!isPlainObject(included)) return fail("keys beside $include need the included file to hold an object");
  return deepMerge(included, out);
}

function readIncluded(name: string, at: KeyPathSegment[], walk: Walk, fail: (message: string) => never): unknown {
  if (name.includes("\0") || name.length >= MAX_PATH_LENGTH) fail(`not a usable path: ${JSON.stringify(name.slice(0, 80))}`);
  const target = path.normalize(path.resolve(path.dirname(walk.file), expandHome(name, os.homedir())));
  const allowed = `the config file's folder${walk.roots.length > 1 ? " and OPENCLAW_INCLUDE_ROOTS" : ""} (${walk.roots.join(", ")}); move it there or add its folder to OPENCLAW_INCLUDE_ROOTS`;
  if (!walk.roots.some((root) => isInside(root, target))) fail(`${name} is outside ${allowed}`);
  if (walk.chain.includes(target)) fail(`circular $include: ${[...walk.chain, target].join(" -> ")}`);
  if (walk.chain.length > MAX_DEPTH) fail(`more than ${MAX_DEPTH} nested includes at ${name}`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === "ENOENT" ? `${name} not found (${target})` : `cannot read ${name} (${code ?? (err as Error).message})`);
  }
  const real = fs.realpathSync(target);
  if (!walk.roots.some((root) => isInside(realOrSame(root), real))) fail(`${name} leads through a symlink to ${real}, which is outside ${allowed}`);
  if (!stat.isFile()) fail(`${name} is not a regular file`);
  if (stat.nlink > 1) fail(`${name} has ${stat.nlink} hard links; copy it into a new file`);
  if (stat.size > MAX_FILE_BYTES) fail(`${name} is larger than 2 MiB`);
  const bytes = fs.readFileSync(target);
  let parsed: unknown;
  try {
    parsed = parseConfigText(bytes.toString("utf8"), target, { anyRoot: true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return fail(`cannot parse ${name}: ${err.message}`);
  }
  walk.read.push({ path: target, hash: hashConfigBytes(bytes) });
  return expand(parsed, at, { ...walk, file: target, chain: [...walk.chain, target] });
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function realOrSame(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

/** OpenClaw's include merge: objects merge key by key, lists concatenate, anything else is replaced. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over];
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) setOwnProperty(out, key, Object.hasOwn(base, key) ? deepMerge(base[key], value) : value);
  return out;
}

import fs from "node:fs";
import os from "node:os";
import { expandHome } from "../home-path.js";
import type { SecretProviderSettings } from "./secret-provider.js";
import { failAll, isJsonObject, secretValue, type SecretOutcome } from "./secret-value.js";

const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * File refs: one private file per provider, read once for all its ids. `json` files hold an object
 * whose ids are JSON pointers; a `singleValue` file is the secret itself (id `value`, the trailing
 * newline dropped). The file must be a regular file (not a symlink) with one link, owned by this
 * user and closed to group and others, as OpenClaw requires.
 */
export function readFileSecrets(provider: SecretProviderSettings, ids: readonly string[]): Map<string, SecretOutcome> {
  const file = expandHome(provider.path ?? "", os.homedir());
  const text = readPrivateFile(file, provider.maxBytes ?? DEFAULT_MAX_BYTES);
  if (typeof text !== "string") return failAll(ids, text.problem);
  if (provider.mode === "singleValue") {
    const value = secretValue(text.replace(/\r?\n$/, ""));
    return new Map(ids.map((id): [string, SecretOutcome] => [id, id === "value" ? value : { problem: 'a singleValue provider\'s only id is "value"' }]));
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message quotes the text, which is a secret: only say where.
    return failAll(ids, `${file} is not valid JSON`);
  }
  if (!isJsonObject(data)) return failAll(ids, `${file} does not hold a JSON object`);
  return new Map(ids.map((id): [string, SecretOutcome] => [id, pointerValue(data, id, file)]));
}

function readPrivateFile(file: string, maxBytes: number): string | { problem: string } {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" ? `${file} does not exist` : `cannot read ${file} (${code ?? (err as Error).message})` };
  }
  if (stat.isSymbolicLink()) return { problem: `${file} is a symlink: point path at the file itself` };
  if (!stat.isFile()) return { problem: `${file} is not a regular file` };
  if (stat.nlink > 1) return { problem: `${file} has ${stat.nlink} hard links: copy it into a new private file and point path there` };
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return { problem: `${file} is owned by another user (uid ${stat.uid}); it must be this user's` };
  if ((stat.mode & 0o077) !== 0) return { problem: `${file} is open to group or others (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 ${file}` };
  if (stat.size > maxBytes) return { problem: `${file} is larger than maxBytes (${maxBytes} bytes)` };
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    return { problem: `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

/** RFC 6901: `/a/b~1c` is `a`, then `b/c` (`~1` is `/`, `~0` is `~`). */
function pointerValue(data: Record<string, unknown>, pointer: string, file: string): SecretOutcome {
  if (!pointer.startsWith("/")) return { problem: 'a json provider\'s ids are absolute JSON pointers ("/a/b")' };
  let node: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return { problem: `${file} has nothing at ${pointer}` };
    node = node[key];
  }
  return secretValue(node);
}

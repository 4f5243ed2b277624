import { isEnvReference } from "./env-substitution.js";
import { isPlainObject, parseKeyPath, setOwnProperty } from "./key-path.js";

export const REDACTED = "__OPENCLAW_REDACTED__";

// Compared after lower-casing and dropping "-"/"_", so "api_key", "API-KEY" and "apiKey"
// are one name. Header names like Authorization carry credentials in provider configs.
const SECRET_NAMES = new Set(["token", "password", "apikey", "secret", "bottoken", "apptoken", "signingsecret", "authorization", "cookie"]);

// camelCase endings (botToken; case-sensitive so "monkey" stays readable) and
// kebab/snake endings (x-api-key, CLIENT_SECRET).
const CAMEL_SECRET_SUFFIX = /[a-z0-9](?:Token|Secret|Key|Password)$/;
const SEPARATED_SECRET_SUFFIX = /[-_](?:token|secret|key|password)$/i;

// Names that match the suffix rule but hold identifiers, not credentials.
const NOT_SECRET = new Set(["mainKey", "sessionKey", "publicKey", "idempotencyKey"]);

// Every value an environment map sets may be a credential (`DATABASE_URL` holds a password):
// `env.vars`, an MCP server's `env` and a local model server's `env` are hidden whole.
const ALL_VALUES_SECRET = /^(?:env\.vars|mcp\.servers\.[^.]+\.env|models\.providers\.[^.]+\.localService\.env)$/;

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, "");
}

/** Whether `value`, stored under `key`, is a credential that redaction hides. */
export function isSecretEntry(key: string, value: unknown): boolean {
  if (NOT_SECRET.has(key)) return false;
  // "${VAR}" names where the secret lives; showing it helps and leaks nothing.
  if (typeof value === "string" && (value === "" || isEnvReference(value))) return false;
  if (SECRET_NAMES.has(normalize(key))) return typeof value === "string" || typeof value === "number";
  return typeof value === "string" && (CAMEL_SECRET_SUFFIX.test(key) || SEPARATED_SECRET_SUFFIX.test(key));
}

/**
 * Deep copy with secret-looking values replaced by a fixed marker, for `config get`,
 * the config RPCs and logs. Errs on the side of hiding: a false positive costs a lookup in
 * the file, a false negative leaks a credential.
 */
export function redactConfig<T>(value: T, alsoHidden: readonly string[] = []): T {
  const copy = redactValue(value);
  // Values read through a SecretRef are secrets whatever their key is called (a custom header).
  for (const keyPath of alsoHidden) hideAt(copy, parseKeyPath(keyPath));
  return copy as T;
}

function hideAt(root: unknown, path: (string | number)[]): void {
  let node = root;
  for (const key of path.slice(0, -1)) {
    node = isPlainObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  const last = path.at(-1);
  if (last !== undefined && isPlainObject(node) && typeof node[last] === "string") node[last] = REDACTED;
}

function redactValue(value: unknown, path = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    setOwnProperty(out, key, isSecretAt(path, key, child) ? REDACTED : redactValue(child, path ? `${path}.${key}` : key));
  }
  return out;
}

/**
 * Whether the value at `key` of the object at `parentPath` (dotted, "" for the root) is hidden:
 * a secret by its name, or any value of an environment map.
 */
export function isSecretAt(parentPath: string, key: string, value: unknown): boolean {
  if (ALL_VALUES_SECRET.test(parentPath)) return typeof value === "string" && value !== "" && !isEnvReference(value);
  return isSecretEntry(key, value);
}

import { isPlainObject } from "../key-path.js";
import { SECRET_PROVIDER_ALIAS } from "../schema/secrets.js";

/** OpenClaw's SecretRef: where a credential is read instead of being written into the config. */
export interface SecretRef {
  source: string;
  provider?: string;
  id: string;
}

const REF_KEYS = new Set(["source", "provider", "id"]);
const ENV_ID = /^[A-Z][A-Z0-9_]{0,127}$/;
const EXEC_ID = /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/;

/** An object that is meant as a SecretRef: `source` and `id` strings, nothing but `provider` beside them. */
export function asSecretRef(value: unknown): SecretRef | undefined {
  if (!isPlainObject(value) || typeof value.source !== "string" || typeof value.id !== "string") return undefined;
  if (Object.keys(value).some((key) => !REF_KEYS.has(key))) return undefined;
  return value as unknown as SecretRef;
}

/** What is wrong with a ref's own fields (its grammar per source), or undefined. Never the secret: a ref holds none. */
export function secretRefProblem(ref: SecretRef): string | undefined {
  if (ref.provider !== undefined && (typeof ref.provider !== "string" || !SECRET_PROVIDER_ALIAS.test(ref.provider))) {
    return "SecretRef provider must be a provider alias: a-z, 0-9, _ or -, starting with a letter";
  }
  switch (ref.source) {
    case "env":
      return ENV_ID.test(ref.id) ? undefined : "an env SecretRef's id is an environment variable name: A-Z, 0-9 and _, starting with a letter";
    case "file":
      return ref.id === "value" || /^\/.*/.test(ref.id)
        ? undefined
        : 'a file SecretRef\'s id is an absolute JSON pointer ("/providers/openai/apiKey"), or "value" for a singleValue provider';
    case "exec":
      if (!EXEC_ID.test(ref.id)) return "an exec SecretRef's id is 1-256 of A-Z, a-z, 0-9, and . _ : / # -, starting with a letter or digit";
      return ref.id.split("/").some((segment) => segment === "." || segment === "..") ? 'an exec SecretRef\'s id may not hold "." or ".." path segments' : undefined;
    case "store":
      return 'SecretRef source "store" (OpenClaw\'s shared secret store) is not supported by this gateway; use env, file or exec';
    default:
      return `unknown SecretRef source "${ref.source}"; expected one of "env", "file", "exec"`;
  }
}

/** `source:provider:id`, for messages: ids name where a secret lives, never the secret. */
export function describeSecretRef(ref: SecretRef, provider: string): string {
  return `${ref.source}:${provider}:${ref.id}`;
}

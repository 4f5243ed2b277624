import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "./key-path.js";

// "$${NAME}" is the escape for a literal "${NAME}"; the optional leading "$" is captured so
// both forms are handled in a single left-to-right pass. Lower-case names are deliberately
// not variables, so strings like "${model}" templates pass through untouched.
const REFERENCE = /(\$?)\$\{([A-Z_][A-Z0-9_]*)\}/g;

/** True when the whole string is one "${NAME}" reference (not a secret in itself). */
export function isEnvReference(value: string): boolean {
  return /^\$\{[A-Z_][A-Z0-9_]*\}$/.test(value);
}

function substituteString(text: string, env: NodeJS.ProcessEnv, at: string, warnings: string[]): string {
  if (!text.includes("${")) return text;
  return text.replace(REFERENCE, (whole: string, escaped: string, name: string) => {
    if (escaped) return whole.slice(1);
    const value = env[name];
    if (value === undefined) {
      warnings.push(`environment variable ${name} is not set (left "\${${name}}" as is) at ${at}`);
      return whole;
    }
    return value;
  });
}

/**
 * Returns a copy of `value` with ${VAR} references in every string replaced from `env`.
 * Missing variables stay literal and add a warning naming the key path. Substituted values
 * remain strings: this is meant for secrets, URLs and paths.
 */
export function substituteEnvVars(value: unknown, env: NodeJS.ProcessEnv, warnings: string[], path: KeyPathSegment[] = []): unknown {
  if (typeof value === "string") return substituteString(value, env, formatKeyPath(path) || "(root)", warnings);
  if (Array.isArray(value)) return value.map((item, index) => substituteEnvVars(item, env, warnings, [...path, index]));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      setOwnProperty(out, key, substituteEnvVars(child, env, warnings, [...path, key]));
    }
    return out;
  }
  return value;
}

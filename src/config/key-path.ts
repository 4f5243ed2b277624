import { ConfigError } from "./errors.js";

/** A parsed key path: strings are object keys, numbers are array indexes. */
export type KeyPathSegment = string | number;

// Keys made only of these characters are written with a dot; anything else
// (slashes in "openai/gpt-4", dots, spaces) is written as ["quoted"] so the
// path can be parsed back unambiguously.
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

// Refused anywhere in a path: writing through them would reach Object.prototype.
const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** The key paths in `value` (objects and arrays, walked whole) whose last key is one of the forbidden keys. */
export function findForbiddenKeys(value: unknown, path: KeyPathSegment[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => findForbiddenKeys(item, [...path, index]));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => (FORBIDDEN_KEYS.has(key) ? [formatKeyPath([...path, key])] : findForbiddenKeys(child, [...path, key])));
}

export function formatKeyPath(segments: readonly KeyPathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Parses "a.b[0].c", 'a["x/y"].z' or "a['x']"; "" is the root. Throws ConfigError on bad syntax. */
export function parseKeyPath(text: string): KeyPathSegment[] {
  const segments: KeyPathSegment[] = [];
  const fail = (why: string): never => {
    throw new ConfigError(`invalid key path "${text}": ${why}`);
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "[") {
      const close = findClosingBracket(text, i);
      if (close < 0) fail("unclosed [");
      const inner = text.slice(i + 1, close).trim();
      if (/^\d+$/.test(inner)) segments.push(Number(inner));
      else if (/^(".*"|'.*')$/s.test(inner)) segments.push(unquote(inner, fail));
      else fail(`expected an index or a quoted key inside [ ]`);
      i = close + 1;
      if (i < text.length && text[i] !== "." && text[i] !== "[") fail(`expected "." or "[" after "]"`);
      continue;
    }
    if (ch === ".") {
      const next = text[i + 1];
      if (segments.length === 0 || next === undefined || next === "." || next === "[") fail("empty key");
      i += 1;
    }
    let end = i;
    while (end < text.length && text[end] !== "." && text[end] !== "[") end += 1;
    if (end === i) fail("empty key");
    segments.push(text.slice(i, end));
    i = end;
  }
  for (const segment of segments) {
    if (typeof segment === "string" && FORBIDDEN_KEYS.has(segment)) fail(`"${segment}" is not allowed`);
  }
  return segments;
}

function findClosingBracket(text: string, open: number): number {
  const quote = text[open + 1];
  if (quote === '"' || quote === "'") {
    for (let j = open + 2; j < text.length; j += 1) {
      if (text[j] === "\\") j += 1;
      else if (text[j] === quote) return text[j + 1] === "]" ? j + 1 : -1;
    }
    return -1;
  }
  return text.indexOf("]", open);
}

function unquote(quoted: string, fail: (why: string) => never): string {
  if (quoted.startsWith('"')) {
    try {
      return JSON.parse(quoted) as string;
    } catch {
      return fail("bad quoted key");
    }
  }
  return quoted.slice(1, -1).replace(/\\(.)/g, "$1");
}

/**
 * Sets an own property even for the key "__proto__" (plain assignment would replace the
 * object's prototype instead): config files are user input, so copies must be literal.
 */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a value by key path; `found` distinguishes "absent" from "present but undefined/null". */
export function getConfigValue(obj: unknown, keyPath: string): { found: boolean; value?: unknown } {
  let current: unknown = obj;
  for (const segment of parseKeyPath(keyPath)) {
    if (Array.isArray(current)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= current.length) return { found: false };
      current = current[index];
    } else if (isPlainObject(current) && Object.hasOwn(current, String(segment))) {
      current = current[String(segment)];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

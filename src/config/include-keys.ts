import type { ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";

const INCLUDE_KEY = "$include";

/**
 * OpenClaw's `$include` (another file's keys merged in at that place), wherever it appears. This
 * gateway does not read includes, and a config loaded without the keys they hold (channels,
 * providers, auth) is not what its author meant, so each one is an error naming the fix.
 */
export function includeKeyIssues(value: unknown, path: KeyPathSegment[] = []): ConfigIssue[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => includeKeyIssues(item, [...path, index]));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === INCLUDE_KEY
      ? [{ path: formatKeyPath([...path, key]), message: "$include is not supported by this gateway; copy the keys of the included file into this file in its place" }]
      : includeKeyIssues(child, [...path, key]),
  );
}

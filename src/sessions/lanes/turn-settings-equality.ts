import { isDeepStrictEqual } from "node:util";

/**
 * True when two messages' own turn settings are the same (plain data; none equals none), so one
 * turn may answer both. Messages without settings compare by identity and cost nothing more.
 */
export function sameTurnSettings(a: object | undefined, b: object | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && isDeepStrictEqual(a, b));
}

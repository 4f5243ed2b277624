import type BetterSqlite3 from "better-sqlite3";

export type SqliteConstructor = typeof BetterSqlite3;

let loading: Promise<SqliteConstructor> | undefined;

/**
 * better-sqlite3, loaded on first use and then shared: a gateway that never touches a SQLite
 * store never loads the native module. A failed load is not kept, so the next call tries again;
 * its error says that `feature` ("cron", "traces", "memory") is unavailable and how to fix it.
 */
export function loadSqlite(feature: string): Promise<SqliteConstructor> {
  const attempt = (loading ??= import("better-sqlite3").then((mod) => (mod.default ?? mod) as SqliteConstructor));
  return attempt.catch((error: unknown) => {
    if (loading === attempt) loading = undefined;
    throw new Error(`${feature} unavailable: the SQLite module (better-sqlite3) did not load: ${(error as Error).message}. Reinstall with npm ci.`);
  });
}

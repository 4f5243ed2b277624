import type BetterSqlite3 from "better-sqlite3";

export type SqliteDatabase = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
export type VectorExtension = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Loads sqlite-vec into `db`. `extensionPath` replaces the binary the sqlite-vec package ships
 * for this platform ($OPENCLAW_SQLITE_VEC_PATH). Failure is an answer, not an error: search
 * then ranks vectors in process and status reports the reason.
 */
export async function loadVectorExtension(db: SqliteDatabase, extensionPath?: string): Promise<VectorExtension> {
  let loadablePath = extensionPath;
  try {
    if (!loadablePath) {
      const sqliteVec = await import("sqlite-vec");
      loadablePath = sqliteVec.getLoadablePath();
    }
    db.loadExtension(loadablePath);
    const row = db.prepare("SELECT vec_version() AS version").get() as { version: string };
    return { ok: true, version: row.version };
  } catch (error) {
    return { ok: false, reason: `sqlite-vec did not load (${firstLine((error as Error).message)}); vectors are ranked in process instead` };
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.slice(0, 200);
}

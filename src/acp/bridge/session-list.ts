import path from "node:path";

/** Rows per `session/list` page unless `_meta.pageSize` (1–100) asks for fewer. */
export const LIST_PAGE_SIZE = 100;
/** The gateway lists at most this many sessions, so no cursor points further. */
const MAX_OFFSET = 10_000;

export interface ListCursor {
  offset: number;
  cwd?: string;
}

/** Cursors are opaque to the IDE: base64url JSON of the next offset and the filter they belong to. */
export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, offset: cursor.offset, ...(cursor.cwd ? { cwd: cursor.cwd } : {}) }), "utf8").toString("base64url");
}

export function decodeListCursor(value: string | null | undefined, cwd: string | undefined): ListCursor {
  if (value === null || value === undefined) return { offset: 0 };
  let parsed: { v?: unknown; offset?: unknown; cwd?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    throw new Error("session/list: the cursor is not one this bridge issued; start again without a cursor");
  }
  const offset = parsed?.offset;
  if (parsed?.v !== 1 || typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
    throw new Error("session/list: the cursor is not one this bridge issued; start again without a cursor");
  }
  const cursorCwd = typeof parsed.cwd === "string" ? parsed.cwd : undefined;
  if (cursorCwd !== cwd) throw new Error("session/list: the cursor belongs to a different cwd filter; start again without a cursor");
  return { offset, ...(cursorCwd ? { cwd: cursorCwd } : {}) };
}

export function pageSizeFrom(meta: Record<string, unknown> | null | undefined): number {
  const requested = meta?.pageSize;
  if (requested === undefined) return LIST_PAGE_SIZE;
  if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 1 || requested > LIST_PAGE_SIZE) {
    throw new Error(`session/list: _meta.pageSize must be an integer from 1 to ${LIST_PAGE_SIZE}`);
  }
  return requested;
}

export function assertAbsoluteCwd(cwd: string, method: string): void {
  if (!path.isAbsolute(cwd)) throw new Error(`${method}: cwd must be an absolute path, got "${cwd}"`);
}

import path from "node:path";
import { SessionKeyError } from "../keys/index.js";

/**
 * Every file the store touches is built here from the state dir plus ids the store validated
 * (agent slug, session uuid). A final containment check guards against a bug elsewhere ever
 * turning a path into an escape from the state dir.
 */

/** Session ids are generated uuids; ids read from disk must look the same before they name a file. */
const SESSION_ID_PATTERN = /^[a-z0-9][a-z0-9-]{7,63}$/i;

export const INDEX_FILE_NAME = "sessions.json";
export const TRANSCRIPT_SUFFIX = ".jsonl";

export type ArchiveKind = "reset" | "deleted" | "rotated" | "corrupt";

export function isValidSessionId(sessionId: unknown): sessionId is string {
  return typeof sessionId === "string" && SESSION_ID_PATTERN.test(sessionId);
}

export function agentsRoot(stateDir: string): string {
  return path.join(path.resolve(stateDir), "agents");
}

/** `<state>/agents/<agentId>/sessions`; `agentId` must already be a validated slug. */
export function sessionsDir(stateDir: string, agentId: string): string {
  return contained(stateDir, path.join(agentsRoot(stateDir), agentId, "sessions"));
}

export function indexFile(stateDir: string, agentId: string): string {
  return path.join(sessionsDir(stateDir, agentId), INDEX_FILE_NAME);
}

export function transcriptFile(stateDir: string, agentId: string, sessionId: string): string {
  if (!isValidSessionId(sessionId)) throw new SessionKeyError(`session id "${String(sessionId).slice(0, 80)}" is not valid`);
  return contained(stateDir, path.join(sessionsDir(stateDir, agentId), `${sessionId}${TRANSCRIPT_SUFFIX}`));
}

/**
 * `<file>.<kind>.<timestamp>`: the colon-free ISO time sorts by age and is safe on every
 * filesystem. Archives are never overwritten; a second archive in the same millisecond gets a
 * counter.
 */
export function archiveName(file: string, kind: ArchiveKind, now: number, exists: (p: string) => boolean): string {
  const stamp = new Date(now).toISOString().replace(/:/g, "-");
  let candidate = `${file}.${kind}.${stamp}`;
  for (let n = 1; exists(candidate); n += 1) candidate = `${file}.${kind}.${stamp}.${n}`;
  return candidate;
}

function contained(stateDir: string, target: string): string {
  const root = path.resolve(stateDir);
  const rel = path.relative(root, target);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new SessionKeyError(`refusing a session path outside the state dir: ${target}`);
  }
  return target;
}

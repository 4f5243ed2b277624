import type { SessionEntry } from "../../sessions/store/index.js";
import { parseSearchQuery, SessionSearchUnavailableError, type SessionSearchHit, type SessionSearchIndex } from "../../sessions/search/index.js";
import { TOOL_ERRORS, type ToolRefusal } from "../tool-errors.js";
import { SESSIONS_SEARCH_DEFAULT_LIMIT, type SessionsSearchArgs } from "../tools/session-tool-params.js";
import type { SessionToolCaller } from "../types.js";
import { checkSessionVisible } from "./session-visibility.js";
import { resolveVisible, type SessionViewDeps } from "./session-views.js";

export interface SessionSearchDeps extends SessionViewDeps {
  index: SessionSearchIndex;
}

/** The hits of one answer, serialized, stay under this (as OpenClaw); the best ones are kept. */
const RESULTS_BYTES = 32 * 1024;

const INDEXING_WARNING = "Some transcripts are still being indexed, so hits may be missing: search again shortly.";

/**
 * `sessions_search`: the query over the sessions `caller` may see — the same check as
 * sessions_list and sessions_history (checkSessionVisible), applied before the index is asked,
 * so a session outside visibility never takes a place among the `limit` hits. `sessionKey`
 * narrows it to one visible session. Each hit says where sessions_history finds it
 * (`historyOffset`); the hits are cut to RESULTS_BYTES.
 */
export async function searchSessions(deps: SessionSearchDeps, caller: SessionToolCaller, args: SessionsSearchArgs): Promise<Record<string, unknown> | ToolRefusal> {
  const text = args.query.trim();
  if (!text) return TOOL_ERRORS.searchQueryEmpty();
  const query = parseSearchQuery(text);
  if (!query) return TOOL_ERRORS.searchQueryNoWords(text);
  const sessions = visibleSessions(deps, caller, args.sessionKey);
  if (!Array.isArray(sessions)) return sessions;
  let found: Awaited<ReturnType<SessionSearchIndex["search"]>>;
  try {
    found = await deps.index.search({
      sessions: sessions.map((e) => ({ sessionKey: e.sessionKey, sessionId: e.sessionId, sessionFile: e.sessionFile })),
      liveTranscript: (key) => deps.store.peek(key)?.sessionFile,
      query,
      limit: args.limit ?? SESSIONS_SEARCH_DEFAULT_LIMIT,
      redact: deps.redact,
    });
  } catch (err) {
    if (err instanceof SessionSearchUnavailableError) return TOOL_ERRORS.searchUnavailable(err.message);
    throw err;
  }
  const { results, truncated } = withinBytes(found.hits.map(toResult), RESULTS_BYTES);
  return {
    results,
    ...(found.indexing ? { indexing: true, warning: INDEXING_WARNING } : {}),
    ...(truncated ? { truncated: true } : {}),
  };
}

/** The sessions to search, most recently updated first: the one `sessionKey` names, or every visible one. */
function visibleSessions(deps: SessionViewDeps, caller: SessionToolCaller, sessionKey: string | undefined): SessionEntry[] | ToolRefusal {
  if (sessionKey !== undefined) {
    const key = resolveVisible(deps, caller, sessionKey);
    if (typeof key !== "string") return key;
    const entry = deps.store.get(key);
    return entry ? [entry] : TOOL_ERRORS.sessionNotFound(key);
  }
  const config = deps.config();
  return deps.store.list().filter((e) => !checkSessionVisible({ config, spawnedBy: deps.spawnedBy }, caller.sessionKey, e.sessionKey));
}

/**
 * A hit as the model reads it. `historyOffset` is the `offset` for sessions_history (without
 * includeTools) whose page ends with this message: the number of messages shown after it.
 */
function toResult(hit: SessionSearchHit): Record<string, unknown> {
  return {
    sessionKey: hit.sessionKey,
    role: hit.role,
    timestamp: new Date(hit.at).toISOString(),
    snippet: hit.snippet,
    score: hit.score,
    ...(hit.newerMessages !== undefined ? { historyOffset: hit.newerMessages } : {}),
  };
}

/** The leading results whose JSON fits `maxBytes`. */
function withinBytes(results: Record<string, unknown>[], maxBytes: number): { results: Record<string, unknown>[]; truncated: boolean } {
  let bytes = 2;
  for (let i = 0; i < results.length; i += 1) {
    bytes += Buffer.byteLength(JSON.stringify(results[i]), "utf8") + (i > 0 ? 1 : 0);
    if (bytes > maxBytes) return { results: results.slice(0, i), truncated: true };
  }
  return { results, truncated: false };
}

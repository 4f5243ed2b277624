export {
  SEARCH_INDEX_BYTES,
  SessionSearchIndex,
  SessionSearchUnavailableError,
  sessionSearchIndexPath,
  type SearchableSession,
  type SessionSearchHit,
  type SessionSearchRequest,
  type SessionSearchResult,
} from "./session-search-index.js";
export { MAX_QUERY_CHARS, parseSearchQuery, type SearchQuery } from "./search-query.js";
export { SNIPPET_CHARS } from "./snippet.js";

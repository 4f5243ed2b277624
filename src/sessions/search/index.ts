export {
  SessionSearchIndex,
  SessionSearchUnavailableError,
  sessionSearchIndexPath,
  type SearchableSession,
  type SessionSearchHit,
  type SessionSearchRequest,
  type SessionSearchResult,
} from "./session-search-index.js";
export { parseSearchQuery, type SearchQuery } from "./search-query.js";
export { snippetAround } from "./snippet.js";

import { LRUCache } from "lru-cache";

/**
 * Which session each response id continued, so `previous_response_id` continues it again.
 * Remembered in memory for the latest 10,000 responses: a restart forgets them, and an id it
 * does not know is refused with a clear error rather than silently starting over.
 */
export class ResponseSessions {
  private readonly byId: LRUCache<string, { sessionKey: string; agentId: string }>;

  constructor(max = 10_000) {
    this.byId = new LRUCache({ max });
  }

  remember(responseId: string, sessionKey: string, agentId: string): void {
    this.byId.set(responseId, { sessionKey, agentId });
  }

  lookup(responseId: string): { sessionKey: string; agentId: string } | undefined {
    return this.byId.get(responseId);
  }
}

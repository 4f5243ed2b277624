import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

const MAX_CLIENTS = 32;
const clients = new LRUCache<string, object>({ max: MAX_CLIENTS });

/**
 * SDK clients per provider settings. Building one per request costs more than the request's own
 * overhead and throws away its connection pool (keep-alive), so they are reused; the key holds
 * only a hash of the API key, never the key itself.
 */
// Hashing the key on every request showed in profiles; the hash of the last few keys is kept.
const keyHashes = new LRUCache<string, string>({ max: MAX_CLIENTS });

function keyHash(apiKey: string): string {
  let hash = keyHashes.get(apiKey);
  if (hash === undefined) {
    hash = createHash("sha256").update(apiKey).digest("hex");
    keyHashes.set(apiKey, hash);
  }
  return hash;
}

export function cachedClient<T>(settings: { kind: string; baseUrl?: string; apiKey: string; timeoutSeconds?: number; headers?: Record<string, string> }, create: () => T): T {
  const key = JSON.stringify({ ...settings, apiKey: keyHash(settings.apiKey) });
  const existing = clients.get(key);
  if (existing) return existing as T;
  const client = create();
  clients.set(key, client as object);
  return client;
}

import { createHash } from "node:crypto";

const MAX_CLIENTS = 32;
const clients = new Map<string, unknown>();

/**
 * SDK clients per provider settings. Building one per request costs more than the request's own
 * overhead and throws away its connection pool (keep-alive), so they are reused; the key holds
 * only a hash of the API key, never the key itself.
 */
export function cachedClient<T>(settings: { kind: string; baseUrl?: string; apiKey: string; timeoutSeconds?: number; headers?: Record<string, string> }, create: () => T): T {
  const key = JSON.stringify({ ...settings, apiKey: createHash("sha256").update(settings.apiKey).digest("hex") });
  const existing = clients.get(key);
  if (existing) return existing as T;
  const client = create();
  clients.set(key, client);
  if (clients.size > MAX_CLIENTS) clients.delete(clients.keys().next().value!);
  return client;
}

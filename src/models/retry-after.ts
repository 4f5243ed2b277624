/**
 * How long a provider asked us to wait: `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterOf(headers: unknown): number | undefined {
  const get = (name: string): string | null | undefined => (headers instanceof Headers ? headers.get(name) : (headers as Record<string, string | undefined> | undefined)?.[name]);
  const msText = get("retry-after-ms");
  const ms = Number(msText);
  if (msText && Number.isFinite(ms) && ms >= 0) return ms;
  const value = get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

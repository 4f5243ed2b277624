const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard base64 text (whitespace between groups allowed, padding optional), with its decoded
 * size known before any buffer is made, so an oversized payload is refused for free; undefined
 * when the text is not base64 (Buffer.from would skip the bad characters silently).
 */
export function base64Payload(text: string): { text: string; size: number } | undefined {
  const compact = text.replace(/\s+/g, "");
  if (compact.length === 0 || compact.length % 4 === 1 || !BASE64.test(compact)) return undefined;
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return { text: compact, size: Math.floor((compact.length * 3) / 4) - padding };
}

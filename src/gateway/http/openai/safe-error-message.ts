/**
 * Turn a failed turn's message into something fit for an HTTP client: first line only (a stack
 * trace starts on the second), bounded, and with anything secret-looking blanked. Provider SDK
 * errors sometimes quote part of an API key or an Authorization header back at us.
 */
const MAX_LENGTH = 500;
const SECRET_PATTERNS: RegExp[] = [/\b(bearer|basic)\s+[^\s"',]+/gi, /\bsk-[A-Za-z0-9_-]{6,}/g, /\b(api[_-]?key|token|password|secret)(["']?\s*[:=]\s*["']?)[^\s"',]+/gi];

export function safeErrorMessage(message: unknown, secrets: (string | undefined)[] = []): string {
  let text = typeof message === "string" ? message : "";
  text = text.split(/\r?\n/, 1)[0]!.trim();
  for (const secret of secrets) {
    if (secret && secret.length >= 4) text = text.split(secret).join("[redacted]");
  }
  text = text.replace(SECRET_PATTERNS[0]!, "$1 [redacted]").replace(SECRET_PATTERNS[1]!, "[redacted]").replace(SECRET_PATTERNS[2]!, "$1$2[redacted]");
  if (text.length > MAX_LENGTH) text = `${text.slice(0, MAX_LENGTH)}…`;
  return text || "internal error";
}

/**
 * `data:<type>[;params];base64,<data>`: its type (lower case) and base64 text; `not-base64` for a
 * data URI in another encoding, undefined for anything that is not a data URI.
 */
export function parseDataUri(value: string): { mimeType: string; base64: string } | "not-base64" | undefined {
  const match = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/is.exec(value);
  if (!match) return undefined;
  const [, mimeType = "", parameters = "", data = ""] = match;
  if (!/;base64$/i.test(parameters)) return "not-base64";
  return { mimeType: mimeType.trim().toLowerCase(), base64: data };
}

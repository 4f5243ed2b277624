import { parseMediaType } from "../../../infra/media-type.js";

/**
 * `data:<type>[;params];base64,<data>`: its type (lower case), the charset a parameter names, and
 * the base64 text; `not-base64` for a data URI in another encoding, undefined for anything that is
 * not a data URI.
 */
export function parseDataUri(value: string): { mimeType: string; charset?: string; base64: string } | "not-base64" | undefined {
  const match = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/is.exec(value);
  if (!match) return undefined;
  const [, type = "", parameters = "", data = ""] = match;
  if (!/;base64$/i.test(parameters)) return "not-base64";
  return { ...parseMediaType(type + parameters.replace(/;base64$/i, "")), base64: data };
}

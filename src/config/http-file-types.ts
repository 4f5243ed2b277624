import type { RawOpenClawConfig } from "./schema/index.js";

/** The file types a `/v1` request's files are read as: text, and PDFs (their text and sparse pages as images). */
export const READABLE_FILE_TYPES: readonly string[] = ["text/plain", "text/markdown", "text/html", "text/csv", "application/json", "application/pdf"];

/**
 * `gateway.http.endpoints.<endpoint>.files.allowedMimes` may narrow the readable types; a type
 * this gateway cannot read (a Word document) is kept but named, since such files are still refused.
 */
export function httpFileTypeWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  for (const endpoint of ["chatCompletions", "responses"] as const) {
    const unread = (config.gateway?.http?.endpoints?.[endpoint]?.files?.allowedMimes ?? []).filter((type) => !READABLE_FILE_TYPES.includes(type.toLowerCase()));
    if (unread.length > 0) {
      warnings.push(
        `gateway.http.endpoints.${endpoint}.files.allowedMimes: ${unread.join(", ")} ${unread.length === 1 ? "is" : "are"} not read by this gateway (it reads ${READABLE_FILE_TYPES.join(", ")}); such files are refused`,
      );
    }
  }
  return warnings;
}

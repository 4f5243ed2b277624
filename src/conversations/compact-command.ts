import type { CompactResult } from "./session-compactor.js";

/** The chat reply to `/compact`. */
export async function runCompactCommand(sessionKey: string, instructions: string, compact: (sessionKey: string, instructions?: string) => Promise<CompactResult>): Promise<string> {
  const result = await compact(sessionKey, instructions || undefined);
  if (!result.ok) return `⚠️ Nothing compacted: ${result.reason}.`;
  return `🧹 Compacted: ${result.summarizedMessages} older messages summarized (context ≈${formatTokens(result.tokensBefore)} → ≈${formatTokens(result.tokensAfter)} tokens; compaction #${result.compactionCount}).`;
}

function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

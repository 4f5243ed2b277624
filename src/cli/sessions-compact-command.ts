import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { resolveTypedKey, sessionTargeting } from "./session-targets.js";

export interface SessionsCompactFlags extends ClientFlags {
  agent?: string;
}

/** `sessions.compact`'s answer (docs/protocol.md). */
interface CompactAnswer {
  ok: boolean;
  key: string;
  compacted: boolean;
  reason?: string;
  tokensBefore?: number;
  tokensAfter?: number;
}

/** Longest wait setTimeout takes (about 24 days): the gateway's own compaction deadline ends it first. */
const NO_CLIENT_DEADLINE = 2_147_483_647;

/**
 * `openclaw sessions compact <key>`: summarizes the session's older turns now (`sessions.compact`).
 * Exits 1 whenever nothing was compacted, with the gateway's reason, so a script never takes a
 * no-op for success. The CLI waits as long as the gateway takes (it may first finish a turn in
 * progress) unless --timeout is given.
 */
export async function sessionsCompactCommand(raw: string, flags: SessionsCompactFlags): Promise<void> {
  const client = await connectClient(flags);
  let answer: CompactAnswer;
  try {
    const targeting = await sessionTargeting(client, flags.agent);
    const typed = resolveTypedKey(raw, targeting);
    if (!typed.ok) throw new CliError(`Compaction failed: ${typed.error}`);
    const timeoutMs = flags.timeout !== undefined ? resolveClientTarget(flags).timeoutMs : NO_CLIENT_DEADLINE;
    try {
      answer = (await client.call("sessions.compact", { key: typed.key }, { timeoutMs })) as CompactAnswer;
    } catch (err) {
      // The gateway's refusal (an unknown session names its key) keeps its error code.
      throw Object.assign(new CliError(`Compaction failed: ${(err as Error).message}`), { error: (err as { error?: unknown }).error });
    }
  } finally {
    client.close();
  }
  if (!answer.compacted) return reportNotCompacted(answer, flags.json === true);
  if (flags.json) return printJson(answer);
  const tokens = typeof answer.tokensBefore === "number" && typeof answer.tokensAfter === "number" ? ` (${answer.tokensBefore} → ${answer.tokensAfter} tokens)` : "";
  process.stdout.write(`Compacted session ${answer.key}${tokens}.\n`);
}

/** Nothing compacted (too short, the summary failed or timed out, the session was reset meanwhile): a failure. */
function reportNotCompacted(answer: CompactAnswer, json: boolean): void {
  const message = `Compaction failed for session ${answer.key}${answer.reason ? `: ${answer.reason}` : ""}.`;
  if (!json) throw new CliError(message);
  process.exitCode = 1;
  printJson({ ...answer, ok: false, error: { type: "cli_error", message } });
}

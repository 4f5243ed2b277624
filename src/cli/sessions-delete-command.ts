import type { GatewayClient } from "../gateway/client.js";
import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { printJson } from "./output.js";
import { isMainSessionOf, listHint, resolveTypedKey, sessionTargeting, type SessionTargeting } from "./session-targets.js";
import { askConfirm, canAsk } from "./ask.js";

export interface SessionsDeleteFlags extends ClientFlags {
  agent?: string;
  dryRun?: boolean;
  yes?: boolean;
}

/** One typed key's outcome, in OpenClaw's shape (`status` as its CLI reports it). */
interface DeleteResult {
  key: string;
  ok: boolean;
  status: "deleted" | "would_delete" | "not_found" | "failed";
  error?: string;
}

const CONFIRMATION_REQUIRED = "Deletion requires confirmation. Pass --yes to delete non-interactively.";

/**
 * `openclaw sessions delete <keys...>`: `sessions.delete` for each key, one ordered result per key.
 * Every key is checked first; unknown ones fail without stopping the others. Deleting asks once on
 * a terminal; without one (or with --json) it needs --yes and otherwise deletes nothing.
 */
export async function sessionsDeleteCommand(keys: string[], flags: SessionsDeleteFlags): Promise<void> {
  const dryRun = flags.dryRun === true;
  const client = await connectClient(flags);
  let results: DeleteResult[];
  try {
    const timeoutMs = resolveClientTarget(flags).timeoutMs;
    const targeting = await sessionTargeting(client, flags.agent);
    results = [];
    for (const raw of keys) results.push(await checkTarget(client, raw, targeting, timeoutMs));
    const valid = results.filter((r) => r.ok);
    if (dryRun) {
      for (const r of valid) Object.assign(r, dryRunOutcome(r.key, targeting));
    } else if (valid.length > 0) {
      const go = flags.yes === true || (await confirmed(valid.length, flags.json === true));
      if (go === "cancelled") return void process.stdout.write("Cancelled.\n");
      for (const r of valid) Object.assign(r, go ? await deleteOne(client, r.key, timeoutMs) : { ok: false, status: "failed", error: CONFIRMATION_REQUIRED });
    }
  } finally {
    client.close();
  }
  report(results, dryRun, flags.json === true);
}

/** A typed key resolved to the session it names: one the gateway has is ok, `would_delete` until the caller acts on it. */
async function checkTarget(client: GatewayClient, raw: string, targeting: SessionTargeting, timeoutMs: number): Promise<DeleteResult> {
  const typed = resolveTypedKey(raw, targeting);
  if (!typed.ok) return { key: raw.trim(), ok: false, status: "failed", error: typed.error };
  const found = (await client.call("sessions.resolve", { key: typed.key, allowMissing: true }, { timeoutMs })) as { ok: boolean; key?: string };
  if (!found.ok) return { key: typed.key, ok: false, status: "not_found", error: `Session not found. Run ${listHint(targeting)} to choose a valid key.` };
  return { key: found.key ?? typed.key, ok: true, status: "would_delete" };
}

/** What a real delete would do: the gateway never deletes an agent's main session. */
function dryRunOutcome(key: string, targeting: SessionTargeting): Partial<DeleteResult> {
  if (isMainSessionOf(key, targeting)) return { ok: false, status: "failed", error: `Cannot delete the main session (${key}).` };
  return { ok: true, status: "would_delete" };
}

async function deleteOne(client: GatewayClient, key: string, timeoutMs: number): Promise<Partial<DeleteResult>> {
  try {
    await client.call("sessions.delete", { key }, { timeoutMs });
    return { ok: true, status: "deleted" };
  } catch (err) {
    return { ok: false, status: "failed", error: (err as Error).message };
  }
}

/**
 * Whether to delete: asked once on a terminal (default no). Without a terminal, or with --json,
 * there is nobody to ask: false, and the results say to pass --yes.
 */
async function confirmed(count: number, json: boolean): Promise<boolean | "cancelled"> {
  if (json || !canAsk()) return false;
  return (await askConfirm(`Delete ${count} session${count === 1 ? "" : "s"} and remove live transcript state?`, false)) ? true : "cancelled";
}

/** The results: OpenClaw's JSON envelope, or a line per key (failures on stderr); exit 1 when any key failed. */
function report(results: DeleteResult[], dryRun: boolean, json: boolean): void {
  const ok = results.every((r) => r.ok);
  if (!ok) process.exitCode = 1;
  if (json) {
    const failure = ok ? {} : { error: { type: "cli_error", message: "Session delete did not complete for every requested key." } };
    return printJson({ ok, ...failure, operation: "delete", dryRun, results });
  }
  for (const r of results) {
    if (r.status === "deleted") process.stdout.write(`Deleted session ${r.key}.\n`);
    else if (r.status === "would_delete") process.stdout.write(`[dry-run] delete session ${r.key} and its live transcript state\n`);
    else process.stderr.write(`delete ${r.key}: ${r.error}\n`);
  }
}

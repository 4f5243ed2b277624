import path from "node:path";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { whereJsonBreaks } from "../../infra/json-error-position.js";
import { readTextIfExists } from "../../infra/read-optional.js";
import { type ExecGrant, sameGrant } from "./exec-grants.js";

/** `<state dir>/exec-grants.json`: the `allow-always` grants of every agent, kept across restarts. */
export function execGrantsPath(stateDir: string): string {
  return path.join(stateDir, "exec-grants.json");
}

interface StoredGrant extends ExecGrant {
  grantedAt: number;
}

/**
 * Every agent's `allow-always` grants, read once at start and written (atomically, 0600) before
 * the granted command runs, so a grant outlives the gateway. A file that is not valid JSON is
 * never written over: its grants do not apply, new ones last until the gateway stops, and the
 * warning says so. Without a file (a one-off embedded run) grants live in memory only.
 */
export class ExecGrantFile {
  private readonly byAgent = new Map<string, StoredGrant[]>();
  private writable = true;

  constructor(
    private readonly file: string | undefined,
    private readonly warn: (message: string) => void = () => {},
  ) {
    if (file) this.load(file);
  }

  grants(agentId: string): readonly ExecGrant[] {
    return this.byAgent.get(agentId) ?? [];
  }

  /** Every agent's grants, for `exec.approvals.get`. */
  all(): ReadonlyMap<string, readonly (ExecGrant & { grantedAt: number })[]> {
    return this.byAgent;
  }

  /** Adds the grants `agentId` does not hold yet, and saves them. */
  add(agentId: string, grants: readonly ExecGrant[]): void {
    const held = this.byAgent.get(agentId) ?? [];
    const fresh = grants.filter((grant) => !held.some((h) => sameGrant(h, grant)));
    if (fresh.length === 0) return;
    const now = Date.now();
    this.byAgent.set(agentId, [...held, ...fresh.map((grant) => ({ argv: [...grant.argv], cwd: grant.cwd, grantedAt: now }))]);
    if (!this.file || !this.writable) return;
    try {
      this.save(this.byAgent);
    } catch (err) {
      this.warn(`allow-always grant not saved to ${this.file} (${(err as Error).message}); it holds until the gateway stops`);
    }
  }

  /**
   * Takes back every grant `keep` does not return true for, of every agent, on disk first: a
   * grant taken back only in memory would come back with the next start, so when the file cannot
   * be written this throws and nothing changes. (With a file that was not valid JSON at start,
   * the grants held are the ones made since, in memory only, and go from memory.) Returns how
   * many were taken back.
   */
  revoke(keep: (agentId: string, grant: ExecGrant) => boolean): number {
    const next = new Map<string, StoredGrant[]>();
    let revoked = 0;
    for (const [agentId, held] of this.byAgent) {
      const kept = held.filter((grant) => keep(agentId, grant));
      revoked += held.length - kept.length;
      if (kept.length > 0) next.set(agentId, kept);
    }
    if (revoked === 0) return 0;
    if (this.file && this.writable) this.save(next);
    this.byAgent.clear();
    for (const [agentId, grants] of next) this.byAgent.set(agentId, grants);
    return revoked;
  }

  private save(byAgent: ReadonlyMap<string, readonly StoredGrant[]>): void {
    writeFileAtomicSync(this.file!, `${JSON.stringify({ version: 1, agents: Object.fromEntries(byAgent) }, null, 2)}\n`);
  }

  private load(file: string): void {
    const text = readTextIfExists(file);
    if (text === undefined) return;
    let raw: { agents?: unknown };
    try {
      raw = JSON.parse(text);
    } catch {
      this.writable = false;
      this.warn(`${file} is not valid JSON (${whereJsonBreaks(text)}): its allow-always grants do not apply and new ones hold until the gateway stops; fix or remove it`);
      return;
    }
    const agents = raw && typeof raw.agents === "object" && raw.agents !== null ? (raw.agents as Record<string, unknown>) : {};
    for (const [agentId, list] of Object.entries(agents)) {
      const grants = (Array.isArray(list) ? list : []).filter(isStoredGrant);
      const skipped = (Array.isArray(list) ? list.length : 1) - grants.length;
      if (skipped > 0) this.warn(`${file}: ${skipped} grant(s) of agent "${agentId}" skipped (each needs argv, a list of words, and cwd, an absolute directory)`);
      if (grants.length > 0) this.byAgent.set(agentId, grants);
    }
  }
}

function isStoredGrant(value: unknown): value is StoredGrant {
  const grant = value as Partial<StoredGrant> | null;
  return (
    typeof grant === "object" &&
    grant !== null &&
    Array.isArray(grant.argv) &&
    grant.argv.length > 0 &&
    grant.argv.every((word) => typeof word === "string") &&
    typeof grant.cwd === "string" &&
    path.isAbsolute(grant.cwd) &&
    typeof grant.grantedAt === "number"
  );
}

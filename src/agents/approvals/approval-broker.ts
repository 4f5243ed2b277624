import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import { ExecGrantFile } from "./exec-grant-file.js";

export type ApprovalDecision = "allow-once" | "allow-always" | "deny";

export function isApprovalDecision(value: string): value is ApprovalDecision {
  return value === "allow-once" || value === "allow-always" || value === "deny";
}

export interface ExecApprovalRequest {
  id: string;
  command: string;
  cwd?: string;
  agentId?: string;
  sessionKey?: string;
  reason?: string;
  /** The asker showed the question in the run's chat itself (an ACP permission): only other chats need it. */
  promptedInChat?: true;
  createdAtMs: number;
  expiresAtMs: number;
}

export interface ApprovalResolution {
  id: string;
  decision: ApprovalDecision | null;
  resolvedBy?: string;
  ts: number;
}

/** Why a request ended: someone answered it, nobody answered in time, or the gateway shut down. */
export type ApprovalEnd = "decision" | "timeout" | "shutdown";

/** One request as it stands: still waiting, or ended (kept for the last 200 requests). */
export type ApprovalRecord = { request: ExecApprovalRequest; pending: true } | { request: ExecApprovalRequest; pending: false; resolution: ApprovalResolution; end: ApprovalEnd };

interface Pending {
  request: ExecApprovalRequest;
  waiters: ((decision: ApprovalDecision | null) => void)[];
  timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const RECENT_LIMIT = 200;

/**
 * Exec approvals waiting for a human. A request is announced (`onRequested`), resolved once by
 * whoever answers first, and denied when nobody answers in time — never left hanging.
 */
export class ExecApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly recent = new LRUCache<string, Extract<ApprovalRecord, { pending: false }>>({ max: RECENT_LIMIT });
  /** The `allow-always` grants; kept in `grantFile` across restarts when one is given. */
  readonly grants: ExecGrantFile;

  constructor(
    private readonly hooks: {
      onRequested?: (request: ExecApprovalRequest) => void;
      onResolved?: (resolution: ApprovalResolution, request: ExecApprovalRequest) => void;
      /** `<state dir>/exec-grants.json` (execGrantsPath); none: grants live as long as this broker. */
      grantFile?: string;
      onWarning?: (message: string) => void;
    } = {},
  ) {
    this.grants = new ExecGrantFile(hooks.grantFile, hooks.onWarning);
  }

  /** Register a request and return its id and a promise of the decision (null = expired). */
  request(input: Omit<ExecApprovalRequest, "id" | "createdAtMs" | "expiresAtMs">, timeoutMs = DEFAULT_TIMEOUT_MS) {
    const now = Date.now();
    const request: ExecApprovalRequest = { ...input, id: randomUUID(), createdAtMs: now, expiresAtMs: now + timeoutMs };
    let resolveFirst!: (d: ApprovalDecision | null) => void;
    const decision = new Promise<ApprovalDecision | null>((resolve) => (resolveFirst = resolve));
    const timer = setTimeout(() => this.finish(request.id, null, "timeout"), timeoutMs);
    timer.unref();
    this.pending.set(request.id, { request, waiters: [resolveFirst], timer });
    this.hooks.onRequested?.(request);
    return { id: request.id, request, decision };
  }

  /** Wait for an existing request's decision; resolves at once if it already ended. */
  wait(id: string): Promise<ApprovalDecision | null> | undefined {
    const pending = this.pending.get(id);
    if (pending) return new Promise((resolve) => pending.waiters.push(resolve));
    const done = this.recent.get(id);
    return done ? Promise.resolve(done.resolution.decision) : undefined;
  }

  resolve(id: string, decision: ApprovalDecision, resolvedBy?: string): boolean {
    if (!this.pending.has(id)) return false;
    this.finish(id, decision, "decision", resolvedBy);
    return true;
  }

  list(): ExecApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  get(id: string): ExecApprovalRequest | undefined {
    return this.pending.get(id)?.request;
  }

  /** A waiting request, or one of the last 200 that ended, with how it ended. */
  record(id: string): ApprovalRecord | undefined {
    const pending = this.pending.get(id);
    return pending ? { request: pending.request, pending: true } : this.recent.get(id);
  }

  /** Deny everything still open (shutdown). */
  denyAll(): void {
    for (const id of [...this.pending.keys()]) this.finish(id, null, "shutdown");
  }

  private finish(id: string, decision: ApprovalDecision | null, end: ApprovalEnd, resolvedBy?: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const resolution: ApprovalResolution = { id, decision, ...(resolvedBy ? { resolvedBy } : {}), ts: Date.now() };
    this.recent.set(id, { request: pending.request, pending: false, resolution, end });
    for (const waiter of pending.waiters) waiter(decision);
    this.hooks.onResolved?.(resolution, pending.request);
  }
}

import type { GatewayClient } from "./gateway-client.js";

export interface ExecApprovalRequest {
  id: string;
  command: string;
  cwd?: string;
  agentId?: string;
  sessionKey?: string;
  reason?: string;
  createdAtMs: number;
  expiresAtMs: number;
}

/**
 * Exec approvals waiting for a person, kept for the whole app (the nav shows the count on any
 * view): filled from `exec.approval.list` on every connect, then live from the requested and
 * resolved events. A connection without operator.approvals gets neither, so it holds none.
 */
export class ApprovalsStore {
  pending: ExecApprovalRequest[] = [];
  private client: GatewayClient | undefined;

  constructor(private readonly onChange: () => void) {}

  attach(client: GatewayClient): void {
    this.client = client;
    this.pending = [];
    client.onEvent((event, payload) => {
      if (event === "exec.approval.requested") this.upsert(payload as ExecApprovalRequest);
      if (event === "exec.approval.resolved") this.remove((payload as { id: string }).id);
    });
    client.onState((state) => {
      if (state.kind !== "open" || !client.may("exec.approval.list")) return;
      client
        .request<ExecApprovalRequest[] | { approvals?: ExecApprovalRequest[] }>("exec.approval.list")
        .then((list) => {
          this.pending = Array.isArray(list) ? list : (list.approvals ?? []);
          this.changed();
        })
        .catch(() => {});
    });
  }

  async resolve(id: string, decision: "allow-once" | "allow-always" | "deny"): Promise<void> {
    if (!this.client) throw new Error("not connected");
    await this.client.request("exec.approval.resolve", { id, decision });
    this.remove(id);
  }

  private upsert(request: ExecApprovalRequest): void {
    this.pending = [...this.pending.filter((r) => r.id !== request.id), request];
    this.changed();
  }

  private remove(id: string): void {
    const before = this.pending.length;
    this.pending = this.pending.filter((r) => r.id !== id);
    if (this.pending.length !== before) this.changed();
  }

  private changed(): void {
    this.onChange();
  }
}

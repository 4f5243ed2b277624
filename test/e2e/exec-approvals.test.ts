import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

describe("exec approvals over the gateway", () => {
  it("a request is broadcast to approvers, resolved once, and the waiter gets the decision", async () => {
    const requester = await openOperator(gw.url, gw.token);
    const approver = await openOperator(gw.url, gw.token, { scopes: ["operator.approvals"] });
    const reader = await openOperator(gw.url, gw.token, { scopes: ["operator.read"] });

    const req = await requester.sock.request("exec.approval.request", { command: "curl https://example.com", agentId: "main" });
    expect(req.ok).toBe(true);
    const id = req.payload.id;
    const event = await approver.sock.waitFor((f) => f.event === "exec.approval.requested");
    expect(event.payload).toMatchObject({ id, command: "curl https://example.com", agentId: "main" });

    const waiting = requester.sock.request("exec.approval.waitDecision", { id, timeoutMs: 5_000 });
    const list = await approver.sock.request("exec.approval.list", {});
    expect(list.payload.map((a: any) => a.id)).toContain(id);
    const resolved = await approver.sock.request("exec.approval.resolve", { id, decision: "deny" });
    expect(resolved.payload).toEqual({ ok: true, id, decision: "deny" });
    expect((await waiting).payload).toEqual({ id, decision: "deny" });
    await approver.sock.waitFor((f) => f.event === "exec.approval.resolved" && f.payload.id === id);

    const again = await approver.sock.request("exec.approval.resolve", { id, decision: "allow-once" });
    expect(again.error).toMatchObject({ code: "APPROVAL_NOT_FOUND" });
    // Read-only clients neither see approval events nor may resolve.
    expect(reader.sock.frames.some((f) => f.event === "exec.approval.requested")).toBe(false);
    const forbidden = await reader.sock.request("exec.approval.list", {});
    expect(forbidden.error.message).toBe("missing scope: operator.approvals");
    for (const c of [requester, approver, reader]) c.sock.close();
  });

  it("an unanswered request expires as no decision", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    const req = await sock.request("exec.approval.request", { command: "rm -rf /", timeoutMs: 100 });
    const res = await sock.request("exec.approval.waitDecision", { id: req.payload.id, timeoutMs: 5_000 });
    expect(res.payload).toEqual({ id: req.payload.id, decision: null });
    sock.close();
  });
});

import { Type } from "@sinclair/typebox";
import type { ExecApprovalBroker } from "../../agents/approvals/approval-broker.js";
import { ErrorCodes, GatewayError } from "../protocol/errors.js";
import { execApprovalListEntry } from "./exec-approval-shapes.js";
import type { MethodRegistry } from "./registry.js";

const Decision = Type.Union([Type.Literal("allow-once"), Type.Literal("allow-always"), Type.Literal("deny")]);

function notFound(id: string): GatewayError {
  return new GatewayError({ code: ErrorCodes.APPROVAL_NOT_FOUND, message: `approval not found or expired: ${id}` });
}

/** Exec approvals over the wire (see docs/tools.md, "Exec approvals"): request, wait, list, resolve. */
export function registerExecApprovalMethods(registry: MethodRegistry, broker: ExecApprovalBroker): void {
  registry.register({
    name: "exec.approval.request",
    scope: "operator.approvals",
    params: Type.Object(
      {
        command: Type.String({ minLength: 1, maxLength: 16_384 }),
        cwd: Type.Optional(Type.String()),
        agentId: Type.Optional(Type.String()),
        sessionKey: Type.Optional(Type.String()),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 * 60_000 })),
      },
      { additionalProperties: false },
    ),
    handler: (params) => {
      const { timeoutMs, ...rest } = params;
      const { id, request } = broker.request(rest, timeoutMs);
      return { id, expiresAtMs: request.expiresAtMs };
    },
  });

  registry.register({
    name: "exec.approval.waitDecision",
    scope: "operator.approvals",
    params: Type.Object({ id: Type.String({ minLength: 1 }), timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 * 60_000 })) }, { additionalProperties: false }),
    handler: async (params, { signal }) => {
      const waiting = broker.wait(params.id);
      if (!waiting) throw notFound(params.id);
      const limit = params.timeoutMs ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      const decision = await Promise.race([
        waiting,
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), limit);
          signal.addEventListener("abort", () => resolve(null), { once: true });
        }),
      ]);
      clearTimeout(timer);
      return { id: params.id, decision };
    },
  });

  registry.register({
    name: "exec.approval.resolve",
    scope: "operator.approvals",
    params: Type.Object({ id: Type.String({ minLength: 1 }), decision: Decision }, { additionalProperties: false }),
    handler: (params, { caller }) => {
      if (!broker.resolve(params.id, params.decision, caller.clientId)) throw notFound(params.id);
      return { ok: true, id: params.id, decision: params.decision };
    },
  });

  registry.register({
    name: "exec.approval.list",
    scope: "operator.approvals",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => broker.list().map(execApprovalListEntry),
  });

  registry.register({
    name: "exec.approval.get",
    scope: "operator.approvals",
    params: Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    handler: (params) => {
      const request = broker.get(params.id);
      if (!request) throw notFound(params.id);
      return request;
    },
  });
}

import { Type } from "@sinclair/typebox";
import type { TraceRecorder } from "../../traces/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const Ref = Type.String({ minLength: 1, maxLength: 256 });

const MISSING_IDENTITY = ["identity.context"];

/**
 * `audit.run.inspect` (what OpenClaw's `openclaw audit --explain --run <id>` reads) in OpenClaw's
 * result shape, filled only with what this gateway knows: whether a run trace with that id
 * exists. It records no execution identity context and no decision receipts, so those are
 * answered `unsupported` with the trace as the place to look; it has no execution ids, so
 * `executionId` is refused, and so is any cursor, since it never hands one out.
 */
export function registerAuditRunInspect(registry: MethodRegistry, traces: TraceRecorder): void {
  registry.register({
    name: "audit.run.inspect",
    scope: "operator.read",
    params: Type.Object(
      {
        runId: Type.Optional(Ref),
        executionId: Type.Optional(Ref),
        executionCursor: Type.Optional(Ref),
        executionLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
        decisionCursor: Type.Optional(Ref),
        decisionLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      const byRun = params.runId !== undefined;
      if (byRun === (params.executionId !== undefined)) throw invalidRequest("invalid audit.run.inspect params: pass exactly one of runId or executionId");
      if (!byRun && (params.executionCursor !== undefined || params.executionLimit !== undefined)) {
        throw invalidRequest("invalid audit.run.inspect params: executionCursor and executionLimit go with runId only");
      }
      if (!byRun) throw invalidRequest("not supported: this gateway has no execution ids; inspect a run with --run <runId> (audit.run.inspect {runId})");
      if (params.executionCursor !== undefined || params.decisionCursor !== undefined) throw invalidRequest("invalid audit.run.inspect cursor");
      const runId = params.runId!;
      let known: boolean;
      try {
        known = (await traces.list({ runId, limit: 1 })).length > 0;
      } catch (err) {
        throw unavailable(`audit unavailable: the run traces cannot be read: ${(err as Error).message}`);
      }
      return {
        schemaVersion: 1,
        run: { runId, status: known ? "known" : "unknown" },
        identity: {
          state: "unsupported",
          reasonCode: "execution_identity_not_recorded",
          missingEvidence: MISSING_IDENTITY,
          remediation: [
            {
              code: "read_run_trace",
              text: `This gateway records no execution identity or decision receipts. A run's model calls, tool calls and exec approvals are in its trace: this gateway's openclaw traces show ${runId} (traces.get).`,
            },
          ],
        },
        decisionDisplays: [],
        coverage: { state: "unsupported", missingEvidence: [...MISSING_IDENTITY, "decision.receipts"] },
      };
    },
  });
}

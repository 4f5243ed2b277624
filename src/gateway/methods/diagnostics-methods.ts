import { Type } from "@sinclair/typebox";
import { stability } from "../../infra/stability/stability-recorder.js";
import { normalizeStabilityQuery, stabilitySnapshot } from "../../infra/stability/stability-snapshot.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

// Numbers or digit strings, as OpenClaw's CLI sends them; normalizeStabilityQuery checks the values.
const StabilityParams = Type.Object(
  { limit: Type.Optional(Type.Unknown()), type: Type.Optional(Type.Unknown()), sinceSeq: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);

/** `diagnostics.stability`: the process's payload-free stability stream (docs/protocol.md#diagnostics). */
export function registerDiagnosticsMethods(registry: MethodRegistry): void {
  registry.register({
    name: "diagnostics.stability",
    scope: "operator.read",
    params: StabilityParams,
    handler: (params) => {
      let query: ReturnType<typeof normalizeStabilityQuery>;
      try {
        query = normalizeStabilityQuery(params);
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
      return stabilitySnapshot(stability, query);
    },
  });
}

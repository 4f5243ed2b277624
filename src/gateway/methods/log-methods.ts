import { Type } from "@sinclair/typebox";
import { readLogTail } from "../../infra/log-tail.js";
import type { MethodRegistry } from "./registry.js";

/**
 * `logs.tail`: the gateway's own log file in whole JSON lines, with a byte cursor so a follower
 * (`openclaw logs --follow`, the Control UI) asks only for what is new. The file path is shown
 * to admins only, like every other path of the operator's machine.
 */
export function registerLogMethods(registry: MethodRegistry): void {
  registry.register({
    name: "logs.tail",
    scope: "operator.read",
    params: Type.Object(
      {
        cursor: Type.Optional(Type.Integer({ minimum: 0 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
        maxBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime, caller }) => {
      const result = readLogTail(runtime.logFileHealth().file, params);
      return caller.scopes.includes("operator.admin") ? result : { ...result, file: "" };
    },
  });
}

import { Type } from "@sinclair/typebox";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const NOT_SUPPORTED = "nodes are not supported by this gateway: it pairs no nodes and cannot invoke commands on one";

/** Whatever the caller sends: each of these methods refuses before reading it. */
const AnyParams = Type.Object({}, { additionalProperties: true });

/** The node methods that act on a node, with the scope OpenClaw gives each; every one refuses. */
const NODE_ACTIONS: ReadonlyArray<{ name: string; scope: string }> = [
  { name: "node.pair.approve", scope: "operator.pairing" },
  { name: "node.pair.reject", scope: "operator.pairing" },
  { name: "node.pair.remove", scope: "operator.pairing" },
  { name: "node.rename", scope: "operator.pairing" },
  { name: "node.describe", scope: "operator.read" },
  { name: "node.invoke", scope: "operator.write" },
];

/**
 * Nodes (companion devices that run commands for the gateway) do not exist here: `node.list` and
 * `node.pair.list` (what `openclaw nodes status|list` read) answer the true state, none known and
 * none waiting, and the methods that would act on a node refuse by saying so.
 */
export function registerNodeMethods(registry: MethodRegistry): void {
  registry.register({
    name: "node.list",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => ({ ts: Date.now(), nodes: [] }),
  });

  registry.register({
    name: "node.pair.list",
    scope: "operator.pairing",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => ({ pending: [], paired: [] }),
  });

  for (const { name, scope } of NODE_ACTIONS) {
    registry.register({
      name,
      scope,
      params: AnyParams,
      handler: () => {
        throw invalidRequest(`${NOT_SUPPORTED} (${name})`);
      },
    });
  }
}

import type { Binding, RouteInput } from "./resolve-agent-route.js";
import { accountMatches, isAnyAccount, peerMatches, sameId } from "./resolve-agent-route.js";

/** A `bindings[]` entry of `type: "acp"`: one peer's chat talks to a session of the ACP agent `agentId`. */
export interface AcpBinding extends Binding {
  type: "acp";
  acp?: { mode?: "persistent" | "oneshot"; label?: string; cwd?: string };
}

/**
 * The ACP binding for a chat: among the `type: "acp"` bindings whose channel, account and peer
 * match, the first on the chat's own account (named, or `default` when `accountId` is absent),
 * else the first on every account (`"*"`), as OpenClaw ranks them. A thread of a bound chat is
 * bound too.
 */
export function findAcpBinding(bindings: readonly Binding[] | undefined, input: RouteInput): AcpBinding | undefined {
  const matching = (bindings ?? []).filter(
    (b): b is AcpBinding =>
      b.type === "acp" &&
      Boolean(b.match.peer) &&
      sameId(b.match.channel, input.channel) &&
      accountMatches(b.match.accountId, input.accountId) &&
      peerMatches(b.match.peer!, input),
  );
  return matching.find((b) => !isAnyAccount(b.match.accountId)) ?? matching[0];
}

/** A binding's identity across restarts and config edits that leave its match alone. */
export function acpBindingId(binding: AcpBinding): string {
  const { channel, accountId, peer } = binding.match;
  return [channel, accountId ?? "*", peer?.kind ?? "*", peer?.id ?? ""].map((part) => part.trim().toLowerCase()).join(":");
}

import type { Binding, RouteInput } from "./resolve-agent-route.js";
import { accountMatches, isAnyAccount, peerMatches, sameId } from "./resolve-agent-route.js";

/** A `bindings[]` entry of `type: "acp"`: one peer's chat talks to a session of the ACP agent `agentId`. */
export interface AcpBinding extends Binding {
  type: "acp";
  acp?: { mode?: "persistent" | "oneshot"; label?: string; cwd?: string };
}

/**
 * The ACP binding for a chat, ranked as OpenClaw ranks configured bindings: among the
 * `type: "acp"` bindings whose channel, account and peer match, one on the chat's own account
 * (named, or `default` when `accountId` is absent) beats one on every account (`"*"`); within the
 * same account rank, a binding on the chat itself beats one on the parent chat of a thread (the
 * parent's binding covers its threads); among equals the first listed wins.
 */
export function findAcpBinding(bindings: readonly Binding[] | undefined, input: RouteInput): AcpBinding | undefined {
  let best: { binding: AcpBinding; rank: number } | undefined;
  for (const b of bindings ?? []) {
    if (b.type !== "acp" || !b.match.peer || !sameId(b.match.channel, input.channel) || !accountMatches(b.match.accountId, input.accountId) || !peerMatches(b.match.peer, input))
      continue;
    // The account counts 2 and exactness 1, so the account decides first.
    const rank = (isAnyAccount(b.match.accountId) ? 0 : 2) + (sameId(b.match.peer.id, input.peerId) ? 1 : 0);
    if (!best || rank > best.rank) best = { binding: b as AcpBinding, rank };
  }
  return best?.binding;
}

/** A binding's identity across restarts and config edits that leave its match alone. */
export function acpBindingId(binding: AcpBinding): string {
  const { channel, accountId, peer } = binding.match;
  return [channel, accountId ?? "*", peer?.kind ?? "*", peer?.id ?? ""].map((part) => part.trim().toLowerCase()).join(":");
}

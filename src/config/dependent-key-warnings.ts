import { formatKeyPath } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";
import { channelEntries } from "./channel-blocks.js";

/**
 * Keys that load but have no effect beside the rest of the config: a key that only acts beside
 * another one that is missing or set otherwise, or a second agent marked default. Each gets a
 * warning saying so.
 */
export function dependentKeyWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [
    ...extraDefaultAgentWarnings(config),
    ...idleCustomBindHostWarnings(config),
    ...idleHeartbeatChatWarnings(config),
    ...unreachableHeartbeatTargetWarnings(config),
    ...idleTrustedProxyAuthWarnings(config),
  ];
  return warnings;
}

/** The first agent marked `default` (agents.list, then agents.entries, as the agents are listed) is the default; later marks do nothing. */
function extraDefaultAgentWarnings(config: RawOpenClawConfig): string[] {
  const marked = [
    ...(config.agents?.list ?? []).map((entry, index) => ({ id: entry.id, path: `agents.list[${index}].default`, isDefault: entry.default === true })),
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]) => ({ id, path: formatKeyPath(["agents", "entries", id, "default"]), isDefault: entry.default === true })),
  ].filter((agent) => agent.isDefault);
  const first = marked[0];
  return marked.slice(1).map((agent) => `${agent.path} is ignored: agent "${first!.id}" is already marked default (the first one marked is the default agent)`);
}

/** `gateway.auth.trustedProxy` and `identityScopes` are read only by the `trusted-proxy` auth mode. */
function idleTrustedProxyAuthWarnings(config: RawOpenClawConfig): string[] {
  const auth = config.gateway?.auth;
  if (!auth || auth.mode === "trusted-proxy") return [];
  const mode = auth.mode === undefined ? "not set" : `"${auth.mode}"`;
  return (["trustedProxy", "identityScopes"] as const)
    .filter((key) => auth[key] !== undefined)
    .map((key) => `gateway.auth.${key} is ignored: gateway.auth.mode is ${mode}, not "trusted-proxy" (set the mode to use it, or remove it)`);
}

/** `gateway.customBindHost` is the address only `bind: "custom"` listens on; beside any other bind it does nothing. */
function idleCustomBindHostWarnings(config: RawOpenClawConfig): string[] {
  const gateway = config.gateway;
  if (!gateway?.customBindHost?.trim() || gateway.bind === "custom") return [];
  const bind = gateway.bind === undefined ? "not set (loopback)" : `"${gateway.bind}"`;
  return [
    `gateway.customBindHost is ignored: gateway.bind is ${bind}, not "custom" (set gateway.bind to "custom" to use it, or remove it; as it is, only \`gateway run --bind custom\` uses it)`,
  ];
}

/** A heartbeat's `to` and `accountId` name the chat of its target; with target `none` (the default) its reply goes to no chat. */
function idleHeartbeatChatWarnings(config: RawOpenClawConfig): string[] {
  type Block = { target?: string; to?: string; accountId?: string } | undefined;
  const defaults: Block = config.agents?.defaults?.heartbeat;
  const own: [string, Block][] = [
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]): [string, Block] => [formatKeyPath(["agents", "entries", id, "heartbeat"]), entry.heartbeat]),
    ...(config.agents?.list ?? []).map((entry, index): [string, Block] => [`agents.list[${index}].heartbeat`, entry.heartbeat]),
  ];
  const idle = (path: string, block: Block, target: string, note: string): string[] => {
    const keys = (["to", "accountId"] as const).filter((key) => block?.[key] !== undefined).map((key) => `${path}.${key}`);
    if (keys.length === 0 || target !== "none") return [];
    return [
      `${keys.join(" and ")} ${keys.length > 1 ? "are" : "is"} ignored: the heartbeat target is "none"${note}, so its reply stays in the session; set heartbeat.target to a channel id or "last"`,
    ];
  };
  // The defaults' chat is used by any agent whose own block names a target.
  const usedByAnAgent = own.some(([, block]) => block?.target !== undefined && block.target !== "none");
  return [
    ...(usedByAnAgent ? [] : idle("agents.defaults.heartbeat", defaults, defaults?.target ?? "none", defaults?.target === undefined ? " (the default)" : "")),
    ...own.flatMap(([path, block]) => idle(path, block, block?.target ?? defaults?.target ?? "none", "")),
  ];
}

/** A channel `target` sends to `channels.<target>`'s chat `to`: without either, a heartbeat reply that is no acknowledgement reaches no chat. */
function unreachableHeartbeatTargetWarnings(config: RawOpenClawConfig): string[] {
  type Block = { target?: string; to?: string; session?: string; directPolicy?: string } | undefined;
  const defaults: Block = config.agents?.defaults?.heartbeat;
  const blocks: [string, Block][] = [
    ["agents.defaults.heartbeat", defaults],
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]): [string, Block] => [formatKeyPath(["agents", "entries", id, "heartbeat"]), entry.heartbeat]),
    ...(config.agents?.list ?? []).map((entry, index): [string, Block] => [`agents.list[${index}].heartbeat`, entry.heartbeat]),
  ];
  const channels = (config.channels ?? {}) as Record<string, unknown>;
  const warnings: string[] = [];
  const unsent = "so a heartbeat reply that is no acknowledgement reaches no chat";
  for (const [path, block] of blocks) {
    const target = block?.target;
    const agentId = /^agents\.entries\.([^.]+)\.heartbeat$/.exec(path)?.[1];
    const sessionAgent = /^agent:([^:]+):/i.exec(block?.session ?? "")?.[1]?.toLowerCase();
    if (agentId && sessionAgent && sessionAgent !== agentId.toLowerCase())
      warnings.push(`${path}.session names agent "${sessionAgent}"'s session; this agent's beats run in its main session (name one of its own sessions)`);
    if (target === "owner" && (block?.directPolicy ?? defaults?.directPolicy) === "block")
      warnings.push(`${path}.target is "owner", a DM, but heartbeat.directPolicy is "block", ${unsent} (use a group chat target, or directPolicy "allow")`);
    if (target === "owner") {
      if (block?.to !== undefined) warnings.push(`${path}.to is ignored: target "owner" sends to the owner's DM (commands.ownerAllowFrom, else a channel's allowFrom)`);
      if (!namesAnOwner(config))
        warnings.push(
          `${path}.target is "owner" but neither commands.ownerAllowFrom nor any channel's allowFrom names anyone, ${unsent} (add yourself to commands.ownerAllowFrom, e.g. "telegram:<your user id>")`,
        );
      continue;
    }
    if (target === undefined || target === "none" || target === "last") continue;
    if (!Object.hasOwn(channels, target))
      warnings.push(`${path}.target is "${target}" but channels.${target} is not configured, ${unsent} (configure it, or use "last" or "none")`);
    else if ((block?.to ?? defaults?.to) === undefined) warnings.push(`${path}.target is "${target}" but no heartbeat.to names the chat, ${unsent} (set ${path}.to)`);
  }
  return warnings;
}

/** Whether some entry could name the owner: `commands.ownerAllowFrom`, or a channel's or account's DM `allowFrom`. */
function namesAnOwner(config: RawOpenClawConfig): boolean {
  const listed = (list: unknown) => Array.isArray(list) && list.some((entry) => String(entry).trim() !== "" && String(entry).trim() !== "*");
  if (listed(config.commands?.ownerAllowFrom)) return true;
  return channelEntries(config.channels as Record<string, { allowFrom?: unknown; accounts?: Record<string, { allowFrom?: unknown }> } | undefined> | undefined).some(
    ([, block]) => listed(block?.allowFrom) || Object.values(block?.accounts ?? {}).some((account) => listed(account?.allowFrom)),
  );
}

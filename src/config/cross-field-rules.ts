import type { ConfigIssue } from "./errors.js";
import { checkAgentReferences } from "./agent-references.js";
import { checkChannelAccountReferences } from "./channel-account-references.js";
import { hookMappingIssues } from "./hook-mapping-checks.js";
import { formatByteSize, parseByteSize } from "../infra/byte-size.js";
import { parseDuration } from "../infra/duration.js";
import { DEFAULT_MAX_DISK_BYTES } from "./defaults.js";
import { parseIpRange } from "../infra/ip-address.js";
import { formatKeyPath, type KeyPathSegment } from "./key-path.js";
import { AGENT_ID_DESCRIPTION, AGENT_ID_PATTERN, type RawOpenClawConfig } from "./schema/index.js";
import { channelEntries } from "./channel-blocks.js";
import { parseSandboxBind } from "./sandbox-binds.js";

const agentIdPattern = new RegExp(AGENT_ID_PATTERN);

const isSet = (value: string | undefined): boolean => typeof value === "string" && value !== "";

/**
 * Rules that involve more than one key, checked once the shape is known to be right.
 * Each returns user-facing issues; none ever echoes a secret.
 */
export function checkCrossFieldRules(config: RawOpenClawConfig): ConfigIssue[] {
  return [
    ...checkGatewayAuth(config),
    ...checkCustomBind(config),
    ...checkSessionScope(config),
    ...checkAgentIds(config),
    ...checkAgentReferences(config),
    ...checkRegexLists(config),
    ...checkApprovalSessionFilters(config),
    ...checkTelegramWebhooks(config),
    ...checkChannelAccountReferences(config),
    ...checkAcpBindings(config),
    ...checkHooks(config),
    ...hookMappingIssues(config),
    ...checkCronFailureAlert(config),
    ...checkHeartbeatTimeZones(config),
    ...checkExecPrograms(config),
    ...checkHeartbeatWindows(config),
    ...checkSkillEnvNames(config),
    ...checkPruneAfter(config),
    ...checkDiskBudget(config),
    ...checkMentionAliases(config),
    ...checkIdentityLinkIds(config),
    ...checkEnvVarNames(config),
    ...checkExecMode(config),
    ...checkAutoTts(config),
    ...checkHumanDelays(config),
    ...checkTrustedProxies(config),
    ...checkSandboxBinds(config),
    ...checkMcpServers(config),
  ];
}

/** `mcp.servers.<name>`: a child process (`command`) or an HTTP server (`url`), each with only its own keys. */
function checkMcpServers(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [name, server] of Object.entries(config.mcp?.servers ?? {})) {
    const at = (key?: string) => formatKeyPath(["mcp", "servers", name, ...(key ? [key] : [])]);
    if (isSet(server.command) === isSet(server.url)) {
      issues.push({ path: at(), message: "give either command (a server started as a child process) or url (a server reached over HTTP)" });
      continue;
    }
    const foreign = isSet(server.command) ? (["transport", "headers"] as const) : (["args", "env", "cwd"] as const);
    for (const key of foreign)
      if (server[key] !== undefined) issues.push({ path: at(key), message: `${key} is for a server ${isSet(server.command) ? "reached by url" : "started with command"}` });
  }
  return issues;
}

/** `sandbox.docker.binds` (defaults and each agent's): well-formed, and nothing that hands the sandbox the host. */
function checkSandboxBinds(config: RawOpenClawConfig): ConfigIssue[] {
  const places: [KeyPathSegment[], string[] | undefined][] = [[["agents", "defaults", "sandbox", "docker", "binds"], config.agents?.defaults?.sandbox?.docker?.binds]];
  for (const [id, entry] of Object.entries(config.agents?.entries ?? {})) places.push([["agents", "entries", id, "sandbox", "docker", "binds"], entry?.sandbox?.docker?.binds]);
  return places.flatMap(([at, binds]) =>
    (binds ?? []).flatMap((spec, index) => {
      const bind = parseSandboxBind(spec);
      return "problem" in bind ? [{ path: formatKeyPath([...at, index]), message: bind.problem }] : [];
    }),
  );
}

/** `gateway.trustedProxies` holds addresses or CIDR ranges; a host name would never match a connection. */
function checkTrustedProxies(config: RawOpenClawConfig): ConfigIssue[] {
  return (config.gateway?.trustedProxies ?? []).flatMap((entry, index) =>
    parseIpRange(entry)
      ? []
      : [{ path: formatKeyPath(["gateway", "trustedProxies", index]), message: `"${entry}" is not an IP address or CIDR range (127.0.0.1, 10.0.0.0/8, ::1)` }],
  );
}

/** What the mention-pattern check reads of a channel block. */
interface ChannelMentionBlock {
  mentionPatterns?: unknown;
  accounts?: Record<string, { mentionPatterns?: unknown }>;
}

/** A custom `humanDelay` pauses between `minMs` and `maxMs`: a range that ends before it starts is a typo. */
function checkHumanDelays(config: RawOpenClawConfig): ConfigIssue[] {
  type Delay = [KeyPathSegment[], { minMs?: number; maxMs?: number } | undefined];
  const delays: Delay[] = [
    [["agents", "defaults", "humanDelay"], config.agents?.defaults?.humanDelay],
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]): Delay => [["agents", "entries", id, "humanDelay"], entry?.humanDelay]),
    ...(config.agents?.list ?? []).map((entry, index): Delay => [["agents", "list", index, "humanDelay"], entry.humanDelay]),
  ];
  return delays
    .filter(([, delay]) => delay?.minMs !== undefined && delay.maxMs !== undefined && delay.minMs > delay.maxMs)
    .map(([path, delay]) => ({ path: formatKeyPath([...path, "maxMs"]), message: `must be at least minMs (${delay!.minMs}); the pause is picked between minMs and maxMs` }));
}

/** OpenClaw's `auto` has a model review each command before a person is asked; this gateway has no such reviewer. */
function checkExecMode(config: RawOpenClawConfig): ConfigIssue[] {
  if (config.tools?.exec?.mode !== "auto") return [];
  return [
    { path: "tools.exec.mode", message: '"auto" (a model reviewing commands before asking you) is not supported by this gateway; use "ask" (allowlist, asking you on a miss)' },
  ];
}

/** Auto-TTS here speaks final replies (`mode: "final"`) when `auto` is always or inbound; `[[tts:...]]` directives (`tagged`) and `mode: "all"` are not built. */
function checkAutoTts(config: RawOpenClawConfig): ConfigIssue[] {
  return [
    ...(config.tts?.auto === "tagged"
      ? [
          {
            path: "tts.auto",
            message: '"tagged": [[tts:...]] directives are not supported by this gateway, so no reply would carry the tag that speaks it; use "always", "inbound" or "off"',
          },
        ]
      : []),
    ...(config.tts?.mode === "all" ? [{ path: "tts.mode", message: '"all": Auto-TTS speaks only the final reply here, not tool or block replies; use "final" or remove it' }] : []),
  ];
}

/** `env.vars` become environment variables: each name must be one a process can read. */
function checkEnvVarNames(config: RawOpenClawConfig): ConfigIssue[] {
  return Object.keys(config.env?.vars ?? {})
    .filter((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map((name) => ({
      path: formatKeyPath(["env", "vars", name]),
      message: `"${name}" is not a variable name: letters, digits and _, not starting with a digit (OPENAI_API_KEY)`,
    }));
}

/** A canonical id ends DM session keys (`agent:<id>:direct:<canonical>`): one word, as a sender id is. */
function checkIdentityLinkIds(config: RawOpenClawConfig): ConfigIssue[] {
  return Object.keys(config.session?.identityLinks ?? {})
    .filter((id) => !/^[^\s:]{1,64}$/.test(id))
    .map((id) => ({ path: formatKeyPath(["session", "identityLinks", id]), message: `"${id}" is not a canonical id: 1-64 characters, no spaces or colons (alice, ops-oncall)` }));
}

/** A zero `session.maintenance.pruneAfter` would archive every session that is not being written this very moment. */
function checkPruneAfter(config: RawOpenClawConfig): ConfigIssue[] {
  const pruneAfter = config.session?.maintenance?.pruneAfter;
  if (pruneAfter === undefined || parseDuration(pruneAfter) !== 0) return [];
  return [
    {
      path: formatKeyPath(["session", "maintenance", "pruneAfter"]),
      message: "must be longer than 0 (it would archive every idle session); use 30d, or a larger maxEntries to keep more",
    },
  ];
}

/** A Discord `mentionAliases` key is a handle as written after the @: letters, digits, `_ . -`; not everyone or here, which ping everyone. */
function checkMentionAliases(config: RawOpenClawConfig): ConfigIssue[] {
  const discord = config.channels?.discord as { mentionAliases?: Record<string, unknown>; accounts?: Record<string, { mentionAliases?: Record<string, unknown> }> } | undefined;
  const places: [KeyPathSegment[], Record<string, unknown> | undefined][] = [[["channels", "discord", "mentionAliases"], discord?.mentionAliases]];
  for (const [id, account] of Object.entries(discord?.accounts ?? {})) places.push([["channels", "discord", "accounts", id, "mentionAliases"], account?.mentionAliases]);
  return places.flatMap(([at, aliases]) =>
    Object.keys(aliases ?? {})
      .filter((handle) => !/^[A-Za-z0-9_.-]{1,32}$/.test(handle) || /^(?:everyone|here)$/i.test(handle))
      .map((handle) => ({
        path: formatKeyPath([...at, handle]),
        message: /^(?:everyone|here)$/i.test(handle)
          ? `@${handle} pings everyone and cannot be an alias`
          : `"${handle}" is not a handle: write it without the @, in letters, digits, _ . - (at most 32)`,
      })),
  );
}

/** `highWaterBytes` is where a disk-budget cleanup stops, so it cannot be above the budget (10 GiB when unset). */
function checkDiskBudget(config: RawOpenClawConfig): ConfigIssue[] {
  const maintenance = config.session?.maintenance;
  if (maintenance?.highWaterBytes === undefined || maintenance.maxDiskBytes === false) return [];
  const max = maintenance.maxDiskBytes === undefined ? DEFAULT_MAX_DISK_BYTES : parseByteSize(maintenance.maxDiskBytes);
  const high = parseByteSize(maintenance.highWaterBytes);
  if (!max || high === undefined || high <= max) return [];
  return [
    {
      path: formatKeyPath(["session", "maintenance", "highWaterBytes"]),
      message: `${formatByteSize(high)} is above maxDiskBytes (${formatByteSize(max)}${maintenance.maxDiskBytes === undefined ? ", the default" : ""}): it is where a cleanup stops, so set it lower, or raise maxDiskBytes`,
    },
  ];
}

/** A skill's variables reach its commands through the environment, so each name must be one a shell can read. */
function checkSkillEnvNames(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [key, entry] of Object.entries(config.skills?.entries ?? {})) {
    for (const name of Object.keys(entry.env ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        issues.push({
          path: formatKeyPath(["skills", "entries", key, "env", name]),
          message: `"${name}" is not a variable name: letters, digits and _, not starting with a digit (GITHUB_TOKEN)`,
        });
      }
    }
  }
  return issues;
}

/**
 * An exec allowlist entry is one program name or an absolute path glob, a safe bin one program
 * name: each is compared with the program a command starts, so a command line, an empty entry or
 * a glob without a path would never match and silently allow nothing.
 */
function checkExecPrograms(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const hint = "one program (git) or an absolute path glob (/usr/bin/*)";
  config.tools?.exec?.allowlist?.forEach((entry, index) => {
    const path = formatKeyPath(["tools", "exec", "allowlist", index]);
    if (entry.trim() === "") issues.push({ path, message: `an entry must not be empty: name ${hint}` });
    else if (/\s/.test(entry)) issues.push({ path, message: `"${entry}" is a command line; an entry names ${hint}` });
    else if (!entry.includes("/") && entry.includes("*")) {
      issues.push({ path, message: `"${entry}" is a glob without a path, which is matched as a plain name and never matches: use an absolute path glob such as /usr/bin/*` });
    }
  });
  config.tools?.exec?.safeBins?.forEach((entry, index) => {
    const path = formatKeyPath(["tools", "exec", "safeBins", index]);
    if (entry.trim() === "") issues.push({ path, message: "a safe bin must not be empty: name one program (head)" });
    else if (/\s/.test(entry)) issues.push({ path, message: `"${entry}" is a command line; a safe bin is one program name (head)` });
  });
  return issues;
}

/** A heartbeat window in a zone Node does not know would be ignored (it beats at any hour): refuse the zone, and an unknown `userTimezone` too. */
function checkHeartbeatTimeZones(config: RawOpenClawConfig): ConfigIssue[] {
  const blocks: { path: KeyPathSegment[]; timezone: string | undefined }[] = [
    { path: ["agents", "defaults", "heartbeat"], timezone: config.agents?.defaults?.heartbeat?.activeHours?.timezone },
  ];
  const userTimezone = config.agents?.defaults?.userTimezone;
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) {
    blocks.push({ path: ["agents", "entries", key, "heartbeat"], timezone: entry.heartbeat?.activeHours?.timezone });
  }
  config.agents?.list?.forEach((entry, index) => blocks.push({ path: ["agents", "list", index, "heartbeat"], timezone: entry.heartbeat?.activeHours?.timezone }));
  const issues: ConfigIssue[] = [];
  if (userTimezone !== undefined && !isKnownTimeZone(userTimezone)) {
    issues.push({ path: "agents.defaults.userTimezone", message: `"${userTimezone}" is not a time zone Node knows: use an IANA name (America/Chicago, Europe/Berlin, UTC)` });
  }
  for (const { path, timezone } of blocks) {
    // `user` and `local` name the user's and the host's zone, as in OpenClaw.
    if (timezone === undefined || timezone === "user" || timezone === "local" || isKnownTimeZone(timezone)) continue;
    issues.push({
      path: formatKeyPath([...path, "activeHours", "timezone"]),
      message: `unknown time zone "${timezone}": use an IANA name such as Europe/Berlin or America/New_York`,
    });
  }
  return issues;
}

/** A window that starts where it ends is empty (OpenClaw never beats in it): refuse it rather than keep a heartbeat that never runs. */
function checkHeartbeatWindows(config: RawOpenClawConfig): ConfigIssue[] {
  type Window = { start: string; end: string } | undefined;
  const blocks: { path: KeyPathSegment[]; window: Window }[] = [{ path: ["agents", "defaults", "heartbeat"], window: config.agents?.defaults?.heartbeat?.activeHours }];
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) blocks.push({ path: ["agents", "entries", key, "heartbeat"], window: entry.heartbeat?.activeHours });
  config.agents?.list?.forEach((entry, index) => blocks.push({ path: ["agents", "list", index, "heartbeat"], window: entry.heartbeat?.activeHours }));
  return blocks
    .filter(({ window }) => window !== undefined && window.start === window.end)
    .map(({ path }) => ({
      path: formatKeyPath([...path, "activeHours", "end"]),
      message:
        'equals activeHours.start, an empty window in which the heartbeat would never beat; give a later end (24:00 for the rest of the day), or set every: "0m" to turn the heartbeat off',
    }));
}

function isKnownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** A chat for failure alerts is a channel and a chat in it: one without the other names no chat. */
function checkCronFailureAlert(config: RawOpenClawConfig): ConfigIssue[] {
  const alert = config.cron?.failureAlert;
  if (!alert || isSet(alert.channel) === isSet(alert.to)) return [];
  return [
    {
      path: isSet(alert.channel) ? "cron.failureAlert.to" : "cron.failureAlert.channel",
      message: "cron.failureAlert.channel and cron.failureAlert.to go together (the chat alerts are sent to)",
    },
  ];
}

/** An ACP binding serves one peer's chat: it needs that peer, and `acp` settings belong to ACP bindings only. */
function checkAcpBindings(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.bindings?.forEach((binding, index) => {
    if (binding.type === "acp" && !binding.match.peer)
      issues.push({ path: formatKeyPath(["bindings", index, "match", "peer"]), message: 'required for a binding of type "acp" (it binds one chat)' });
    if (binding.type !== "acp" && binding.acp) issues.push({ path: formatKeyPath(["bindings", index, "acp"]), message: 'only a binding of type "acp" takes ACP settings' });
    if (binding.type === "acp" && binding.match.peer?.id.trim() === "*")
      issues.push({
        path: formatKeyPath(["bindings", index, "match", "peer", "id"]),
        message: 'a binding of type "acp" binds one chat: name its id ("*" is every chat, for route bindings only)',
      });
  });
  return issues;
}

// Telegram echoes the secret in X-Telegram-Bot-Api-Secret-Token; without one, forged updates
// could not be told apart. An account inherits the channel block's keys.
function checkTelegramWebhooks(config: RawOpenClawConfig): ConfigIssue[] {
  const block = config.channels?.telegram;
  if (!block) return [];
  const issues: ConfigIssue[] = [];
  if (isSet(block.webhookUrl) && !isSet(block.webhookSecret)) {
    issues.push({ path: "channels.telegram.webhookSecret", message: "required when webhookUrl is set (it is how forged updates are refused)" });
  }
  for (const [id, account] of Object.entries(block.accounts ?? {})) {
    const url = account.webhookUrl ?? block.webhookUrl;
    if (isSet(url) && !isSet(account.webhookSecret ?? block.webhookSecret) && !(url === block.webhookUrl && issues.length > 0)) {
      issues.push({
        path: formatKeyPath(["channels", "telegram", "accounts", id, "webhookSecret"]),
        message: "required when webhookUrl is set (it is how forged updates are refused)",
      });
    }
  }
  return issues;
}

// Webhook callers are outside services: their secret must be its own, so leaking it does not open the gateway.
function checkHooks(config: RawOpenClawConfig): ConfigIssue[] {
  const hooks = config.hooks;
  if (!hooks?.enabled) return [];
  if (!isSet(hooks.token)) return [{ path: "hooks.token", message: "required when hooks.enabled is true (a secret webhook callers send)" }];
  if (hooks.token === config.gateway?.auth?.token) return [{ path: "hooks.token", message: "must differ from gateway.auth.token" }];
  return [];
}

/** Every list of regular expressions in the config, with the flags it is compiled with. */
function regexLists(config: RawOpenClawConfig): { path: KeyPathSegment[]; patterns: string[] | undefined; flags: string }[] {
  const lists: { path: KeyPathSegment[]; patterns: string[] | undefined; flags: string }[] = [
    { path: ["logging", "redactPatterns"], patterns: config.logging?.redactPatterns, flags: "g" },
    { path: ["messages", "groupChat", "mentionPatterns"], patterns: config.messages?.groupChat?.mentionPatterns, flags: "i" },
  ];
  for (const [id, agent] of Object.entries(config.agents?.entries ?? {})) {
    lists.push({ path: ["agents", "entries", id, "groupChat", "mentionPatterns"], patterns: agent.groupChat?.mentionPatterns, flags: "i" });
  }
  (config.agents?.list ?? []).forEach((agent, index) => {
    lists.push({ path: ["agents", "list", index, "groupChat", "mentionPatterns"], patterns: agent.groupChat?.mentionPatterns, flags: "i" });
  });
  for (const [channel, block] of channelEntries(config.channels as Record<string, ChannelMentionBlock | undefined> | undefined)) {
    // A policy object (`{ mode, allowIn, denyIn }`) holds conversation ids, not patterns.
    const listOf = (setting: unknown) => (Array.isArray(setting) ? (setting as string[]) : undefined);
    lists.push({ path: ["channels", channel, "mentionPatterns"], patterns: listOf(block?.mentionPatterns), flags: "i" });
    for (const [id, account] of Object.entries(block?.accounts ?? {})) {
      lists.push({ path: ["channels", channel, "accounts", id, "mentionPatterns"], patterns: listOf(account.mentionPatterns), flags: "i" });
    }
  }
  return lists;
}

function checkRegexLists(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { path, patterns, flags } of regexLists(config)) {
    patterns?.forEach((pattern, index) => {
      try {
        new RegExp(pattern, flags);
      } catch (err) {
        issues.push({ path: formatKeyPath([...path, index]), message: `not a valid regular expression (${(err as Error).message})` });
      }
    });
  }
  return issues;
}

/** `approvals.exec.sessionFilter`: an entry written as `/regex/flags` must compile (others are substrings). */
function checkApprovalSessionFilters(config: RawOpenClawConfig): ConfigIssue[] {
  const lists: [KeyPathSegment[], string[] | undefined][] = [[["approvals", "exec", "sessionFilter"], config.approvals?.exec?.sessionFilter]];
  for (const channel of ["telegram", "discord", "slack"] as const) {
    const block = config.channels?.[channel];
    lists.push([["channels", channel, "execApprovals", "sessionFilter"], block?.execApprovals?.sessionFilter]);
    for (const [id, account] of Object.entries(block?.accounts ?? {})) {
      lists.push([["channels", channel, "accounts", id, "execApprovals", "sessionFilter"], account.execApprovals?.sessionFilter]);
    }
  }
  const issues: ConfigIssue[] = [];
  for (const [path, filters] of lists) {
    filters?.forEach((filter, index) => {
      const regex = /^\/(.+)\/([a-z]*)$/.exec(filter);
      if (!regex) return;
      try {
        new RegExp(regex[1]!, regex[2]);
      } catch (err) {
        issues.push({ path: formatKeyPath([...path, index]), message: `not a valid /regular expression/ (${(err as Error).message})` });
      }
    });
  }
  return issues;
}

// With both secrets present, guessing which one clients must present would silently lock
// out whoever uses the other, so the user has to say.
function checkGatewayAuth(config: RawOpenClawConfig): ConfigIssue[] {
  const auth = config.gateway?.auth;
  if (auth && auth.mode === undefined && isSet(auth.token) && isSet(auth.password)) {
    return [{ path: "gateway.auth.mode", message: "required when both token and password are set" }];
  }
  if (auth?.mode === "trusted-proxy") return checkTrustedProxyAuth(config);
  return [];
}

// Trusted-proxy auth believes identity headers from the listed proxies only; without a header name
// or a proxy it could let no one in, and a shared token beside it would open a second way in that
// skips the proxy's authentication.
function checkTrustedProxyAuth(config: RawOpenClawConfig): ConfigIssue[] {
  const gateway = config.gateway!;
  const issues: ConfigIssue[] = [];
  if (!gateway.auth?.trustedProxy) {
    issues.push({
      path: "gateway.auth.trustedProxy",
      message: 'required when gateway.auth.mode is "trusted-proxy" (at least { userHeader: "x-forwarded-user" }, the header your proxy names the user in)',
    });
  } else if (gateway.auth.trustedProxy.userHeader.trim() === "") {
    issues.push({ path: "gateway.auth.trustedProxy.userHeader", message: "must name the header your proxy puts the authenticated user in" });
  }
  if ((gateway.trustedProxies ?? []).length === 0) {
    issues.push({
      path: "gateway.trustedProxies",
      message: 'required when gateway.auth.mode is "trusted-proxy": list your proxy\'s address (or CIDR range); requests from anywhere else are refused',
    });
  }
  if (isSet(gateway.auth?.token)) {
    issues.push({
      path: "gateway.auth.token",
      message:
        'cannot be set with gateway.auth.mode "trusted-proxy": a shared token would let callers in without the proxy (remove it; same-host clients use gateway.auth.password)',
    });
  }
  return issues;
}

function checkCustomBind(config: RawOpenClawConfig): ConfigIssue[] {
  const gateway = config.gateway;
  if (gateway?.bind === "custom" && !isSet(gateway.customBindHost)) {
    return [{ path: "gateway.customBindHost", message: 'required when gateway.bind is "custom"' }];
  }
  return [];
}

// OpenClaw's "global" puts every chat in one session outside any agent's keys; sessions here are
// formed only by session.dmScope and session.mainKey, so the value would be accepted and ignored.
function checkSessionScope(config: RawOpenClawConfig): ConfigIssue[] {
  if (config.session?.scope !== "global") return [];
  return [
    {
      path: "session.scope",
      message: '"global" is not supported by this gateway; use "per-sender" (or leave it unset) and session.dmScope: "main" to share one session for direct messages',
    },
  ];
}

/** One agent, one definition: an id may stand once in `agents.list` or `agents.entries`, not twice and not in both. */
function checkAgentIds(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Map<string, string>();
  config.agents?.list?.forEach((entry, index) => {
    const path = formatKeyPath(["agents", "list", index, "id"]);
    if (seen.has(entry.id)) issues.push({ path, message: `duplicate agent id "${entry.id}"` });
    else seen.set(entry.id, formatKeyPath(["agents", "list", index]));
  });
  for (const [key, entry] of Object.entries(config.agents?.entries ?? {})) {
    if (!agentIdPattern.test(key)) {
      issues.push({ path: formatKeyPath(["agents", "entries", key]), message: `key must be ${AGENT_ID_DESCRIPTION}` });
    } else if (entry.id !== undefined && entry.id !== key) {
      issues.push({ path: formatKeyPath(["agents", "entries", key, "id"]), message: `must match its key "${key}"` });
    } else if (seen.has(key)) {
      issues.push({ path: formatKeyPath(["agents", "entries", key]), message: `agent "${key}" is already defined at ${seen.get(key)}; keep one of the two` });
    }
  }
  return issues;
}

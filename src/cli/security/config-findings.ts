import { allowsNameMatching } from "../../channels/access/allow-list.js";
import { CHANNEL_IDS, resolveChannelAccounts } from "../../channels/config/channel-accounts.js";
import type { OpenClawConfig } from "../../config/index.js";
import { resolveBindHost, isLoopbackHost, type BindMode } from "../../gateway/bind-host.js";
import { isLocalBaseUrl } from "../../models/local-base-url.js";
import type { Finding } from "./finding.js";

const MIN_TOKEN_LENGTH = 24;

/** Who can reach the gateway and with what credential. */
export function gatewayFindings(config: OpenClawConfig, env: NodeJS.ProcessEnv): Finding[] {
  const findings: Finding[] = [];
  const gateway = config.gateway;
  let host = "127.0.0.1";
  try {
    host = resolveBindHost((gateway?.bind as BindMode | undefined) ?? "loopback", gateway?.customBindHost).host;
  } catch {
    // An unresolvable custom bind fails at start; the doctor reports it.
  }
  const exposed = !isLoopbackHost(host);
  const mode = gateway?.auth?.mode ?? "token";
  if (mode === "none") {
    findings.push({
      id: "gateway.auth.none",
      severity: exposed ? "critical" : "warn",
      title: exposed
        ? `gateway.auth.mode is "none" while the gateway listens on ${host}: anyone on the network controls it`
        : 'gateway.auth.mode is "none": every local process and user can drive the agents',
      fix: "openclaw config set gateway.auth.mode token (a token is generated on the next start)",
    });
  }
  if (mode === "trusted-proxy") findings.push(...trustedProxyFindings(config));
  if (exposed) {
    findings.push({
      id: "gateway.bind.exposed",
      severity: "info",
      title: `the gateway listens on ${host} (gateway.bind: ${gateway?.bind ?? "loopback"}): it is reachable from other machines`,
      fix: "openclaw config set gateway.bind loopback, unless remote clients need it",
    });
    if (gateway?.http?.endpoints?.chatCompletions?.enabled || gateway?.http?.endpoints?.responses?.enabled) {
      findings.push({
        id: "gateway.http.exposed",
        severity: "warn",
        title: "the OpenAI-compatible /v1 endpoints are on and reachable from other machines (the token gives full operator access)",
        fix: "turn off gateway.http.endpoints.* or bind to loopback",
      });
    }
  }
  const token = env.OPENCLAW_GATEWAY_TOKEN || gateway?.auth?.token;
  if (mode === "token" && token && token.length < MIN_TOKEN_LENGTH) {
    findings.push({
      id: "gateway.auth.weak-token",
      severity: exposed ? "critical" : "warn",
      title: `the gateway token has ${token.length} characters; guessable tokens let anyone who reaches the port in`,
      fix: `use a random token of at least ${MIN_TOKEN_LENGTH} characters (openssl rand -hex 24)`,
    });
  }
  const origins = gateway?.controlUi?.allowedOrigins ?? [];
  if (origins.includes("*")) {
    findings.push({
      id: "gateway.controlUi.any-origin",
      severity: "warn",
      title: 'gateway.controlUi.allowedOrigins contains "*": any web page may open the Control UI socket',
      fix: "list the exact origins instead",
    });
  }
  return findings;
}

interface ChannelPolicy {
  where: string;
  dmOpen: boolean;
  groupOpen: boolean;
  nameMatching: boolean;
}

function channelPolicies(config: OpenClawConfig): ChannelPolicy[] {
  const policies: ChannelPolicy[] = [];
  for (const channel of CHANNEL_IDS) {
    for (const account of resolveChannelAccounts(config, channel).filter((a) => a.enabled)) {
      policies.push({
        where: `channels.${channel} (account "${account.accountId}")`,
        dmOpen: account.config.dmPolicy === "open",
        groupOpen: account.config.groupPolicy === "open",
        nameMatching: allowsNameMatching(account.config),
      });
    }
  }
  return policies;
}

/** Who may talk to the agents through chat, and what those agents may do on this machine. */
export function exposureFindings(config: OpenClawConfig): Finding[] {
  const findings: Finding[] = [];
  const policies = channelPolicies(config);
  for (const p of policies) {
    if (p.dmOpen)
      findings.push({
        id: "channels.dm-open",
        severity: "warn",
        title: `${p.where}: dmPolicy "open" lets anyone who finds the bot talk to the agent`,
        fix: 'use dmPolicy "pairing" (the default) or "allowlist" with allowFrom',
      });
    if (p.groupOpen)
      findings.push({
        id: "channels.group-open",
        severity: "warn",
        title: `${p.where}: groupPolicy "open" answers in every group the bot is added to`,
        fix: 'use groupPolicy "allowlist" (the default) and list the groups',
      });
    if (p.nameMatching)
      findings.push({
        id: "channels.name-matching",
        severity: "warn",
        title: `${p.where}: dangerouslyAllowNameMatching lets allow-list entries match usernames, which anyone can take`,
        fix: "list user ids instead of names and remove dangerouslyAllowNameMatching",
      });
  }
  const exec = config.tools?.exec;
  const execFull = (exec?.security ?? "full") === "full";
  const noApprovals = (exec?.ask ?? "off") === "off";
  const strangers = policies.filter((p) => p.dmOpen || p.groupOpen);
  if (execFull && noApprovals && strangers.length > 0) {
    findings.push({
      id: "tools.exec.open-to-strangers",
      severity: "critical",
      title: `exec runs any command without approval (tools.exec.security "full", ask "off") and ${strangers.map((p) => p.where).join(", ")} accept(s) messages from anyone: a stranger can run shell commands here`,
      fix: 'set tools.exec.security "allowlist" (or ask "on-miss"), or close the open channel policies',
    });
  } else if (execFull && noApprovals && policies.length > 0) {
    findings.push({
      id: "tools.exec.no-approvals",
      severity: "info",
      title: 'exec runs any command without approval (tools.exec.security "full", ask "off"); only paired or allowlisted chat users reach it',
      fix: 'tools.exec.ask "on-miss" with security "allowlist" asks before unknown commands',
    });
  }
  if (config.tools?.profile === "full" && strangers.length > 0) {
    findings.push({
      id: "tools.profile.full-open",
      severity: "warn",
      title: 'tools.profile "full" gives every tool to agents that strangers can reach',
      fix: 'use tools.profile "messaging" for public bots',
    });
  }
  return findings;
}

/** Webhooks that would accept forged requests. */
export function webhookFindings(config: OpenClawConfig, env: NodeJS.ProcessEnv): Finding[] {
  const findings: Finding[] = [];
  for (const account of resolveChannelAccounts(config, "telegram").filter((a) => a.enabled)) {
    if (account.config.webhookUrl && !account.config.webhookSecret) {
      findings.push({
        id: "channels.telegram.webhook-secret",
        severity: "warn",
        title: `channels.telegram (account "${account.accountId}"): webhook without webhookSecret; anyone who learns the URL can post fake updates`,
        fix: "set webhookSecret (1-256 of A-Z a-z 0-9 _ -)",
      });
    }
  }
  for (const account of resolveChannelAccounts(config, "slack").filter((a) => a.enabled)) {
    const secret = account.config.signingSecret ?? (account.accountId === "default" ? env.SLACK_SIGNING_SECRET : undefined);
    if (account.config.mode === "http" && !secret) {
      findings.push({
        id: "channels.slack.signing-secret",
        severity: "critical",
        title: `channels.slack (account "${account.accountId}"): HTTP mode without signingSecret; events cannot be verified`,
        fix: "set signingSecret (Basic Information → Signing Secret) or SLACK_SIGNING_SECRET",
      });
    }
  }
  return findings;
}

/** OpenClaw's threshold: an elevated allowlist longer than this is hard to keep to people the owner trusts. */
const LARGE_ELEVATED_LIST = 25;

/**
 * Sender lists that let chat users run commands outside the sandbox (`tools.elevated.allowFrom`,
 * an agent's). `webchat` is left out of the `*` check: its senders are operator clients holding
 * the gateway's token, who are the owner.
 */
export function elevatedFindings(config: OpenClawConfig): Finding[] {
  const lists: [string, Readonly<Record<string, readonly string[]>> | undefined][] = [
    ["tools.elevated.allowFrom", config.tools?.elevated?.enabled === false ? undefined : config.tools?.elevated?.allowFrom],
    ...Object.entries(config.agents.entries ?? {}).map(([id, entry]): [string, Readonly<Record<string, readonly string[]>> | undefined] => [
      `agents.entries.${id}.tools.elevated.allowFrom`,
      entry?.tools?.elevated?.allowFrom,
    ]),
  ];
  const findings: Finding[] = [];
  for (const [path, allowFrom] of lists) {
    for (const [channel, list] of Object.entries(allowFrom ?? {})) {
      if (channel !== "webchat" && list.some((entry) => String(entry).trim() === "*"))
        findings.push({
          id: `${path}.${channel}.wildcard`,
          severity: "critical",
          title: `${path}.${channel} holds "*": every ${channel} sender who reaches the agent can run exec outside the sandbox`,
          fix: `list the sender ids in ${path}.${channel}`,
        });
      else if (list.length > LARGE_ELEVATED_LIST)
        findings.push({
          id: `${path}.${channel}.large`,
          severity: "warn",
          title: `${path}.${channel} lists ${list.length} senders who can run exec outside the sandbox`,
          fix: "keep elevated access to the few people who need it",
        });
    }
  }
  return findings;
}

/**
 * MCP servers reached over plain HTTP on another machine: their `headers` (usually a token) and
 * every tool call cross the network unencrypted. A server on this machine is left out.
 */
export function mcpFindings(config: OpenClawConfig): Finding[] {
  return Object.entries(config.mcp?.servers ?? {})
    .filter(([, server]) => server.enabled !== false && server.url?.startsWith("http://") && !isLocalBaseUrl(server.url))
    .map(([name, server]) => ({
      id: "mcp.servers.plain-http",
      severity: server.headers && Object.keys(server.headers).length > 0 ? ("critical" as const) : ("warn" as const),
      title: `mcp.servers.${name}: ${server.url} is plain HTTP to another machine: ${server.headers && Object.keys(server.headers).length > 0 ? "its headers (credentials) and " : ""}every tool call and result cross the network unencrypted`,
      fix: `use an https:// URL for mcp.servers.${name}.url (or run the server on this machine)`,
    }));
}

/**
 * The managed browser's openings: a browser allowed into the private network loads whatever a
 * page steers it to there (the gateway's own services, a router, cloud metadata); one without
 * Chromium's sandbox leaves a page that breaks its renderer with the gateway user's rights.
 */
export function browserFindings(config: OpenClawConfig): Finding[] {
  const browser = config.browser;
  if (!browser || browser.enabled === false) return [];
  const findings: Finding[] = [];
  const policy = browser.ssrfPolicy;
  if (policy?.dangerouslyAllowPrivateNetwork === true || policy?.allowPrivateNetwork === true) {
    const key = policy.dangerouslyAllowPrivateNetwork === true ? "dangerouslyAllowPrivateNetwork" : "allowPrivateNetwork";
    findings.push({
      id: "browser.ssrfPolicy.private-network",
      severity: "warn",
      title: `browser.ssrfPolicy.${key} lets the agent's browser load private, loopback and link-local addresses and this host's own services, wherever a page steers it`,
      fix: `remove browser.ssrfPolicy.${key} and list only the hosts it needs in browser.ssrfPolicy.allowedHostnames`,
    });
  }
  if (browser.noSandbox === true) {
    findings.push({
      id: "browser.no-sandbox",
      severity: "info",
      title: "browser.noSandbox runs Chromium without its sandbox: a page that breaks the renderer acts with the gateway user's rights",
      fix: "run the gateway as a non-root user and remove browser.noSandbox",
    });
  }
  return findings;
}

/** Trusted-proxy auth hands authentication to the proxy: a standing reminder, and what widens it. */
function trustedProxyFindings(config: OpenClawConfig): Finding[] {
  const proxy = config.gateway?.auth?.trustedProxy;
  const findings: Finding[] = [
    {
      id: "gateway.trusted_proxy_auth",
      severity: "critical",
      title: 'gateway.auth.mode is "trusted-proxy": whoever the proxy vouches for is let in, so the proxy is the gateway\'s authentication',
      fix: "make sure the proxy authenticates every user and overwrites the identity headers, gateway.trustedProxies lists only its addresses, and the gateway's port is firewalled from everything but the proxy",
    },
  ];
  if ((proxy?.allowUsers ?? []).length === 0) {
    findings.push({
      id: "gateway.trusted_proxy_no_allowlist",
      severity: "warn",
      title: "gateway.auth.trustedProxy.allowUsers is empty: every user the proxy authenticates is let in",
      fix: "list the users who may use this gateway in gateway.auth.trustedProxy.allowUsers",
    });
  }
  if (proxy?.allowLoopback === true) {
    findings.push({
      id: "gateway.trusted_proxy_loopback",
      severity: "warn",
      title: "gateway.auth.trustedProxy.allowLoopback is on: any process on this host can claim a proxy user by sending the identity headers",
      fix: "turn it off unless the proxy on this host is the only way in and strips client-sent identity headers",
    });
  }
  return findings;
}

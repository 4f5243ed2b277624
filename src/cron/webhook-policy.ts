import net from "node:net";
import type { OpenClawConfig } from "../config/index.js";
import { isPrivateAddress } from "../agents/tools/network-guard.js";

/** `cron.webhookSsrfPolicy`, read: who may be POSTed to. */
export interface WebhookPolicy {
  allowedHostnames: readonly string[];
  blockedHostnames: readonly string[];
  allowPrivateNetwork: boolean;
}

/** How a webhook host is reached: refused outright, allowed onto private addresses, or checked at connect time. */
export type WebhookAccess = { kind: "blocked"; reason: string } | { kind: "private-allowed" } | { kind: "guarded" };

export const PRIVATE_WEBHOOK_HINT = "add the host to cron.webhookSsrfPolicy.allowedHostnames (or set cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork: true) to allow it";

export function webhookPolicy(config: OpenClawConfig): WebhookPolicy {
  const policy = config.cron?.webhookSsrfPolicy;
  return {
    allowedHostnames: (policy?.allowedHostnames ?? []).map(normalHost),
    blockedHostnames: (policy?.blockedHostnames ?? []).map(normalHost),
    allowPrivateNetwork: policy?.dangerouslyAllowPrivateNetwork === true,
  };
}

/**
 * OpenClaw's order: `blockedHostnames` (exact, or `*.example.com` for its subdomains, not the apex)
 * refuses before anything else; an exact `allowedHostnames` entry, or
 * `dangerouslyAllowPrivateNetwork`, lets the host be private; anything else may only reach public
 * addresses, checked when the connection is made.
 */
export function webhookAccess(policy: WebhookPolicy, hostname: string): WebhookAccess {
  const host = normalHost(hostname);
  const blocked = policy.blockedHostnames.find((entry) => (entry.startsWith("*.") ? host.endsWith(entry.slice(1)) : host === entry));
  if (blocked) return { kind: "blocked", reason: `${host} is blocked by cron.webhookSsrfPolicy.blockedHostnames ("${blocked}")` };
  if (policy.allowPrivateNetwork || policy.allowedHostnames.includes(host)) return { kind: "private-allowed" };
  return { kind: "guarded" };
}

/** A literal private, loopback or link-local address that `access` does not allow: the refusal, else undefined. */
export function literalPrivateRefusal(access: WebhookAccess, hostname: string): string | undefined {
  const host = normalHost(hostname);
  if (access.kind !== "guarded" || !net.isIP(host) || !isPrivateAddress(host)) return undefined;
  return `${host} is a private, loopback or link-local address; ${PRIVATE_WEBHOOK_HINT}`;
}

function normalHost(hostname: string): string {
  return hostname
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

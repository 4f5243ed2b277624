import fs from "node:fs";
import os from "node:os";
import { findTailnetIPv4, type NetworkInterfaceList } from "./tailnet-address.js";

export type BindMode = "loopback" | "lan" | "auto" | "tailnet" | "custom";
export const BIND_MODES: readonly BindMode[] = ["loopback", "lan", "auto", "tailnet", "custom"];

/**
 * Map a bind mode to the address we listen on (see docs/configuration.md, `gateway.bind`). Host
 * literals are not bind modes; `custom` takes its address from `gateway.customBindHost`;
 * `tailnet` takes the host's Tailscale IPv4 address, and like OpenClaw falls back to loopback
 * (with a note to log) when the host has none.
 */
export function resolveBindHost(
  mode: BindMode,
  customBindHost: string | undefined,
  listInterfaces: () => NetworkInterfaceList = os.networkInterfaces,
): { host: string; note?: string } {
  switch (mode) {
    case "loopback":
      return { host: "127.0.0.1" };
    case "lan":
      return { host: "0.0.0.0" };
    case "auto":
      return inContainer() ? { host: "0.0.0.0" } : { host: "127.0.0.1" };
    case "tailnet": {
      const tailnet = findTailnetIPv4(listInterfaces());
      if (tailnet) return { host: tailnet };
      return {
        host: "127.0.0.1",
        note: 'gateway.bind is "tailnet" but this host has no Tailscale address (100.64.0.0/10); listening on loopback. Start Tailscale and restart the gateway',
      };
    }
    case "custom":
      if (!customBindHost) throw new Error('gateway.bind is "custom" but gateway.customBindHost is not set');
      return { host: customBindHost };
  }
}

/**
 * The loopback address a gateway on `host` listens on as well, on the same port: 127.0.0.1 beside
 * any specific IPv4 address (what `tailnet` and `custom` give), so tools on this machine reach it
 * the way they reach a loopback gateway, as OpenClaw does. None beside 0.0.0.0 (it covers loopback
 * already), 127.0.0.1 itself, or anything but an IPv4 literal.
 */
export function loopbackAliasFor(host: string): string | undefined {
  if (host === "0.0.0.0" || host === LOOPBACK_IPV4 || !/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined;
  return LOOPBACK_IPV4;
}

const LOOPBACK_IPV4 = "127.0.0.1";

export function isLoopbackHost(host: string): boolean {
  return host === "::1" || host === "localhost" || host.startsWith("127.");
}

function inContainer(): boolean {
  return fs.existsSync("/.dockerenv") || fs.existsSync("/run/.containerenv");
}

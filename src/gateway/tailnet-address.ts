import type os from "node:os";

/** What `os.networkInterfaces()` returns; injectable so a test can say which addresses the host has. */
export type NetworkInterfaceList = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/**
 * The host's Tailscale IPv4 address: the first interface address in 100.64.0.0/10, the range
 * Tailscale hands out to tailnet devices. Undefined when the host is not on a tailnet.
 */
export function findTailnetIPv4(interfaces: NetworkInterfaceList): string | undefined {
  for (const addresses of Object.values(interfaces)) {
    for (const info of addresses ?? []) {
      if (info.family === "IPv4" && !info.internal && inTailscaleRange(info.address)) return info.address;
    }
  }
  return undefined;
}

function inTailscaleRange(ipv4: string): boolean {
  const [first, second] = ipv4.split(".").map(Number);
  return first === 100 && second !== undefined && second >= 64 && second <= 127;
}

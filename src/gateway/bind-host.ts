import fs from "node:fs";

export type BindMode = "loopback" | "lan" | "auto" | "tailnet" | "custom";
export const BIND_MODES: readonly BindMode[] = ["loopback", "lan", "auto", "tailnet", "custom"];

/**
 * Map a bind mode to the address we listen on (see docs/configuration.md, `gateway.bind`). Host
 * literals are not bind modes; `custom` takes its address from `gateway.customBindHost`.
 */
export function resolveBindHost(mode: BindMode, customBindHost: string | undefined): { host: string; note?: string } {
  switch (mode) {
    case "loopback":
      return { host: "127.0.0.1" };
    case "lan":
      return { host: "0.0.0.0" };
    case "auto":
      return inContainer() ? { host: "0.0.0.0" } : { host: "127.0.0.1" };
    case "tailnet":
      return { host: "127.0.0.1", note: "tailnet bind is not supported by this gateway; listening on loopback" };
    case "custom":
      if (!customBindHost) throw new Error('gateway.bind is "custom" but gateway.customBindHost is not set');
      return { host: customBindHost };
  }
}

export function isLoopbackHost(host: string): boolean {
  return host === "::1" || host === "localhost" || host.startsWith("127.");
}

function inContainer(): boolean {
  return fs.existsSync("/.dockerenv") || fs.existsSync("/run/.containerenv");
}

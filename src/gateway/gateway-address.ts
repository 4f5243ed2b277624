import { DEFAULT_GATEWAY_PORT } from "../config/default-port.js";
import { resolveBindHost, type BindMode } from "./bind-host.js";
import type { NetworkInterfaceList } from "./tailnet-address.js";
import { GatewayStartError } from "./start-error.js";

/** A TCP port as typed by a person: an integer 0-65535 (0 = any free port), else undefined. */
export function parsePortNumber(value: string): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : undefined;
}

/** The config's say on where the gateway listens (`gateway.port`, `gateway.bind`, `gateway.customBindHost`). */
export interface ConfiguredAddress {
  port?: number;
  bind?: BindMode;
  customBindHost?: string;
}

export interface GatewayAddress {
  host: string;
  port: number;
  /** Said once the logger is up (e.g. a bind mode this gateway maps to loopback). */
  note?: string;
}

/**
 * Where the gateway listens. Port: the `--port` flag, else $OPENCLAW_GATEWAY_PORT, else
 * `gateway.port`, else 18789. Bind: the `--bind` flag, else `gateway.bind`, else loopback. The
 * one rule for both the early listen (src/gateway/early-listen.ts) and the full start-up, so the
 * two cannot disagree about the same inputs.
 */
export function resolveGatewayAddress(input: {
  portFlag?: number;
  bindFlag?: BindMode;
  envPort: string | undefined;
  configured: ConfiguredAddress;
  /** The host's interfaces, for `tailnet`; `os.networkInterfaces` unless a test gives its own. */
  listInterfaces?: () => NetworkInterfaceList;
}): GatewayAddress {
  const port = resolveGatewayPort(input.portFlag, input.envPort, input.configured.port);
  const bind = resolveBindHost(input.bindFlag ?? input.configured.bind ?? "loopback", input.configured.customBindHost, input.listInterfaces);
  return { port, ...bind };
}

function resolveGatewayPort(flag: number | undefined, envValue: string | undefined, configured: number | undefined): number {
  if (flag !== undefined) return flag;
  if (envValue !== undefined && envValue !== "") {
    const n = parsePortNumber(envValue);
    if (n === undefined) throw new GatewayStartError(`OPENCLAW_GATEWAY_PORT: expected integer 0-65535, got "${envValue}"`);
    return n;
  }
  return configured ?? DEFAULT_GATEWAY_PORT;
}

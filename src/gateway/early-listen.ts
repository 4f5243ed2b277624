import { peekGatewayAddress } from "../config/gateway-peek.js";
import { resolveStateDir } from "../config/paths.js";
import { BIND_MODES, isLoopbackHost, loopbackAliasFor, type BindMode } from "./bind-host.js";
import { parsePortNumber, resolveGatewayAddress, type GatewayAddress } from "./gateway-address.js";
import { createListener, type EarlyListener } from "./listen.js";
import { listenOnLoopback } from "./loopback-socket.js";

/** A port opened by the CLI entry before the gateway's code loaded; runGateway adopts or closes it. */
export interface EarlyListen {
  listener: EarlyListener;
  /** The address asked for (port 0 = any free port). */
  host: string;
  port: number;
  /** The port actually bound. */
  boundPort: number;
  /** Milliseconds from process start to the open port. */
  portOpenMs: number;
}

/** The `gateway run` flags that decide whether and where the port opens early. */
export interface EarlyListenFlags {
  port?: string;
  bind?: BindMode;
  allowUnconfigured?: boolean;
}

/**
 * Opens the gateway's port before the config, lock and server code load — only when the address
 * is loopback (and needs no second listener) and known from the flags, the environment and a plain-JSON (or absent) config file.
 * Undefined when the address cannot be known that cheaply, is not loopback, or the listen fails:
 * the full start-up then listens the usual way (after the config, auth and lock checks) and reports
 * its own errors.
 */
export async function listenEarly(flags: EarlyListenFlags, env: NodeJS.ProcessEnv): Promise<EarlyListen | undefined> {
  const address = earlyAddress(flags, env);
  if (!address) return undefined;
  const handle = listenOnLoopback(address.host, address.port);
  const openedAt = performance.now();
  // Synchronously after the socket opened: the server must hold it before the first connection is accepted.
  const listener = createListener(env);
  try {
    const boundPort = await (handle ? listener.adopt(handle) : listener.listen(address.port, address.host));
    return { listener, host: address.host, port: address.port, boundPort, portOpenMs: Math.round(handle ? openedAt : performance.now()) };
  } catch {
    await listener.close();
    return undefined;
  }
}

/** The loopback address the gateway will listen on, when it is known without the full config load. */
export function earlyAddress(flags: EarlyListenFlags, env: NodeJS.ProcessEnv): GatewayAddress | undefined {
  const portFlag = flags.port === undefined ? undefined : parsePortNumber(flags.port);
  if (flags.port !== undefined && portFlag === undefined) return undefined;
  const configured = peekGatewayAddress(resolveStateDir(env), env);
  if (!configured) return undefined;
  // A client machine's gateway refuses to start: no port for it, not even for a moment.
  if (configured.mode === "remote" && !flags.allowUnconfigured) return undefined;
  const bind = configured.bind;
  if (bind !== undefined && !(BIND_MODES as readonly string[]).includes(bind)) return undefined;
  let address: GatewayAddress;
  try {
    address = resolveGatewayAddress({
      portFlag,
      bindFlag: flags.bind,
      envPort: env.OPENCLAW_GATEWAY_PORT,
      configured: { port: configured.port, bind: bind as BindMode | undefined, customBindHost: configured.customBindHost },
    });
  } catch {
    return undefined; // the full start-up reports it
  }
  // Anything reachable from other machines opens only after the auth checks; an address with a
  // loopback listener beside it (see loopbackAliasFor) opens both at once, in the full start-up.
  return isLoopbackHost(address.host) && !loopbackAliasFor(address.host) ? address : undefined;
}

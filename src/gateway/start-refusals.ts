import type { ConfigIssue, OpenClawConfig } from "../config/index.js";
import { resolveServerAuthMode, serverAuthRefusal, type AuthMode, type AuthOverrides } from "./auth/resolve-auth.js";
import { isLoopbackHost, type BindMode } from "./bind-host.js";
import { resolveGatewayAddress } from "./gateway-address.js";

/** The `gateway run` flags that decide, with the config, whether the gateway starts. */
export interface StartFlags extends AuthOverrides {
  port?: number;
  bind?: BindMode;
  authMode?: AuthMode;
  allowUnconfigured?: boolean;
}

export const REMOTE_MODE_REFUSAL = 'gateway.mode is "remote": this machine is configured as a client. Set gateway.mode to "local" or pass --allow-unconfigured';

/** A gateway never listens beyond loopback without auth: the refusal when `host` would be such an address. */
export function unauthenticatedBindRefusal(mode: AuthMode, host: string, port: number): string | undefined {
  if (mode !== "none" || isLoopbackHost(host)) return undefined;
  return `refusing to bind gateway to ${host}:${port} without auth (set gateway.auth.mode to "token", "password" or "trusted-proxy")`;
}

/**
 * What would stop a gateway started with this config, these flags and this environment, by
 * the key to change; empty when it would start. A config edit over the gateway is refused on
 * these, so a restart never meets a config it cannot run. Reads and writes no file.
 */
export function configStartRefusals(config: OpenClawConfig, env: NodeJS.ProcessEnv, flags: StartFlags): ConfigIssue[] {
  const refused = (path: string, reason: string): ConfigIssue => ({ path, message: `the gateway would not start: ${reason}` });
  const issues: ConfigIssue[] = [];
  if (config.gateway?.mode === "remote" && !flags.allowUnconfigured) issues.push(refused("gateway.mode", REMOTE_MODE_REFUSAL));
  const auth = { mode: flags.authMode, token: flags.token, password: flags.password };
  const authRefusal = serverAuthRefusal(config, env, auth);
  if (authRefusal) issues.push(refused(resolveServerAuthMode(config, env, auth) === "trusted-proxy" ? "gateway.auth.mode" : "gateway.auth.password", authRefusal));
  let address: { host: string; port: number };
  try {
    address = resolveGatewayAddress({
      portFlag: flags.port,
      bindFlag: flags.bind,
      envPort: env.OPENCLAW_GATEWAY_PORT,
      configured: { port: config.gateway?.port, bind: config.gateway?.bind as BindMode | undefined, customBindHost: config.gateway?.customBindHost },
    });
  } catch (err) {
    return [...issues, refused("gateway.bind", (err as Error).message)];
  }
  const bindRefusal = unauthenticatedBindRefusal(resolveServerAuthMode(config, env, auth), address.host, address.port);
  if (bindRefusal) issues.push(refused("gateway.auth.mode", bindRefusal));
  return issues;
}

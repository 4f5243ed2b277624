import fs from "node:fs";
import { isYamlPath, resolveConfigPath } from "./paths.js";
import { yamlGatewayBlock } from "./yaml-gateway-block.js";

/** The config's gateway fields that decide whether and where the gateway listens, unvalidated. */
export interface GatewayAddressPeek {
  port?: number;
  bind?: string;
  customBindHost?: string;
  mode?: string;
}

const PEEKED_FIELDS: ReadonlySet<string> = new Set(["port", "bind", "customBindHost", "mode", "tls"]);

/**
 * `gateway.port`, `gateway.bind`, `gateway.customBindHost` and `gateway.mode`, read from the
 * config file without the parsers, schema and defaults of loadConfig (same file: the one
 * resolveConfigPath picks), so the gateway can open its port before the config code loads.
 * `{}` when there is no config file or no gateway section. Undefined whenever a quick read could
 * be wrong: JSON that is not plain JSON (JSON5 comments, trailing commas), YAML beyond plain
 * `key: value` lines (yaml-gateway-block.ts), an unreadable file, one of these fields with an
 * unexpected type or a `${VAR}` reference, and whenever there is a `gateway.tls` section (what the
 * port serves then is only known once its certificate is loaded). The full load still runs
 * afterwards and is the one that counts.
 */
export function peekGatewayAddress(stateDir: string, env: NodeJS.ProcessEnv): GatewayAddressPeek | undefined {
  const filePath = resolveConfigPath(stateDir, env);
  if (filePath === null) return {};
  let text: string;
  try {
    text = fs.readFileSync(filePath, "utf8");
  } catch {
    return undefined;
  }
  const gateway = isYamlPath(filePath) ? yamlGatewayBlock(text, PEEKED_FIELDS) : jsonGatewayBlock(text);
  if (gateway === null) return {};
  if (!isObject(gateway) || (gateway.tls !== undefined && gateway.tls !== null)) return undefined;
  const { port, bind, customBindHost, mode } = gateway;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535)) return undefined;
  if (![bind, customBindHost, mode].every(isPlainString)) return undefined;
  return { port: port as number | undefined, bind: bind as string | undefined, customBindHost: customBindHost as string | undefined, mode: mode as string | undefined };
}

/** The `gateway` value of a plain-JSON config; null when it has none, undefined when it is not plain JSON with an object root. */
function jsonGatewayBlock(text: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(data)) return undefined;
  return data.gateway === undefined ? null : data.gateway;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Absent, or a string the full load takes as written (no `${VAR}` substitution in it). */
function isPlainString(value: unknown): boolean {
  return value === undefined || (typeof value === "string" && !value.includes("${"));
}

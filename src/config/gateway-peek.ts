import fs from "node:fs";
import { isYamlPath, resolveConfigPath } from "./paths.js";

/** The config's gateway fields that decide whether and where the gateway listens, unvalidated. */
export interface GatewayAddressPeek {
  port?: number;
  bind?: string;
  customBindHost?: string;
  mode?: string;
}

/**
 * `gateway.port`, `gateway.bind`, `gateway.customBindHost` and `gateway.mode`, read from the
 * config file without the parsers, schema and defaults of loadConfig (same file: the one
 * resolveConfigPath picks), so the gateway can open its port before the config code loads.
 * `{}` when there is no config file. Undefined whenever a quick read could be wrong: a YAML file,
 * a file that is not plain JSON (JSON5 comments, trailing commas), an unreadable file, one of these
 * fields with an unexpected type or a `${VAR}` reference. The full load still runs afterwards and
 * is the one that counts.
 */
export function peekGatewayAddress(stateDir: string, env: NodeJS.ProcessEnv): GatewayAddressPeek | undefined {
  const filePath = resolveConfigPath(stateDir, env);
  if (filePath === null) return {};
  if (isYamlPath(filePath)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(filePath, "utf8"));
  } catch {
    return undefined;
  }
  if (!isObject(data)) return undefined;
  const gateway = data.gateway;
  if (gateway === undefined) return {};
  if (!isObject(gateway)) return undefined;
  const { port, bind, customBindHost, mode } = gateway;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535)) return undefined;
  if (![bind, customBindHost, mode].every(isPlainString)) return undefined;
  return { port: port as number | undefined, bind: bind as string | undefined, customBindHost: customBindHost as string | undefined, mode: mode as string | undefined };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Absent, or a string the full load takes as written (no `${VAR}` substitution in it). */
function isPlainString(value: unknown): boolean {
  return value === undefined || (typeof value === "string" && !value.includes("${"));
}

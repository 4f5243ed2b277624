import { redactConfig, REDACTED, type OpenClawConfig } from "../../config/index.js";

type McpServers = NonNullable<NonNullable<OpenClawConfig["mcp"]>["servers"]>;
export type McpServerDefinition = McpServers[string];

/**
 * A server definition typed by its owner (`openclaw mcp set`, `/mcp set`): one JSON object, with
 * OpenClaw's CLI-native `type` (`http`, `streamable-http`, `sse`) read as `transport`. The config
 * edit that saves it checks the rest.
 */
export function parseMcpServerDefinition(json: string): { server: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { problem: `the server definition is not JSON: ${(err as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: 'the server definition must be one JSON object, such as {"command":"uvx","args":["mcp-server-fetch"]}' };
  }
  const server = { ...(value as Record<string, unknown>) };
  if (server.type === "http" || server.type === "streamable-http" || server.type === "sse") {
    if (server.transport === undefined) server.transport = server.type === "sse" ? "sse" : "streamable-http";
    delete server.type;
  }
  return { server };
}

// `--token x`, `--api-key=x`, `--password x` …: a flag that names a credential hides the value it takes.
const SECRET_FLAG = /^--?[\w-]*(token|secret|password|passwd|api[-_]?key|auth|credential)[\w-]*$/i;
// Values shaped like well-known credentials, wherever they stand in the arguments.
const SECRET_SHAPED = /^(sk-[\w-]{8,}|ghp_\w{20,}|github_pat_\w{20,}|xox[abprs]-[\w-]{10,}|AKIA[0-9A-Z]{16}|Bearer\s+\S+)$/;

/**
 * One server as a view shows it: every `env` and `headers` value hidden (any of them may carry a
 * credential, as `DATABASE_URL` does), and credential flags' values and credential-shaped
 * arguments in `args`.
 */
export function redactMcpServer(server: McpServerDefinition): McpServerDefinition {
  const shown = redactConfig(server);
  const hideAll = (values: Record<string, string>) => Object.fromEntries(Object.keys(values).map((key) => [key, REDACTED]));
  return {
    ...shown,
    ...(shown.args && { args: redactArgs(shown.args) }),
    ...(shown.env && { env: hideAll(shown.env) }),
    ...(shown.headers && { headers: hideAll(shown.headers) }),
  };
}

/** One line for a list: the name, `(disabled)`, and the stdio command (arguments redacted) or the URL. */
export function describeMcpServer(name: string, server: McpServerDefinition): string {
  const args = redactArgs(server.args ?? []);
  const where = server.command ? `stdio: ${[server.command, ...args].join(" ")}` : `${server.transport ?? "streamable-http"}: ${server.url}`;
  return `${name}${server.enabled === false ? " (disabled)" : ""}  ${where}`;
}

/** Every server, each as redactMcpServer shows it. */
export function redactMcpServers(servers: McpServers): McpServers {
  return Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, redactMcpServer(server)]));
}

function redactArgs(args: string[]): string[] {
  return args.map((arg, index) => {
    const eq = arg.indexOf("=");
    if (eq > 0 && SECRET_FLAG.test(arg.slice(0, eq))) return `${arg.slice(0, eq)}=${REDACTED}`;
    if (index > 0 && SECRET_FLAG.test(args[index - 1]!) && !arg.startsWith("-")) return REDACTED;
    return SECRET_SHAPED.test(arg) ? REDACTED : arg;
  });
}

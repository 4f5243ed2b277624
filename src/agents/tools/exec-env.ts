/**
 * The environment a shell command gets: the gateway's own, minus credentials. A command the
 * model runs can print anything it sees, and whatever it prints lands in the transcript and the
 * provider's logs, so API keys and gateway secrets are not passed on.
 */
const SECRET_NAME = /(_API_KEY|_TOKEN|_SECRET|_PASSWORD)$/i;
const ALWAYS_DROPPED = new Set(["OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD"]);

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name) || ALWAYS_DROPPED.has(name.toUpperCase());
}

export function buildExecEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isSecretEnvName(name)) env[name] = value;
  }
  // Lets shell profiles and scripts tell that an agent, not a person, is running them.
  env.OPENCLAW_SHELL = "exec";
  return env;
}

/**
 * The environment a shell command gets: the gateway's own, minus credentials. A command the
 * model runs can print anything it sees, and whatever it prints lands in the transcript and the
 * provider's logs, so keys, passwords and gateway secrets are not passed on. A variable is
 * dropped when its name says it holds a secret, or when its value looks like one (a URL with a
 * password in it, a well-known key format), whatever it is called.
 */
const SECRET_NAME = /(API_?KEY|_KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|ACCESS_KEY_ID|CREDENTIALS?|_AUTH)$/i;
const ALWAYS_DROPPED = new Set(["OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD", "PGPASSWORD", "MYSQL_PWD"]);

const SECRET_VALUES: RegExp[] = [
  // scheme://user:password@host (DATABASE_URL, REDIS_URL, proxies with credentials)
  /^[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:[^\s/@]+@/i,
  /^sk-[A-Za-z0-9_-]{16,}$/, // OpenAI / Anthropic style keys
  /^(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}$/, // GitHub tokens
  /^xox[abposr]-[A-Za-z0-9-]{10,}$/, // Slack tokens
  /^(AKIA|ASIA)[A-Z0-9]{16}$/, // AWS access key ids
  /^-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name) || ALWAYS_DROPPED.has(name.toUpperCase());
}

export function isSecretEnvValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

export function buildExecEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isSecretEnvName(name) && !isSecretEnvValue(value)) env[name] = value;
  }
  // Lets shell profiles and scripts tell that an agent, not a person, is running them.
  env.OPENCLAW_SHELL = "exec";
  return env;
}

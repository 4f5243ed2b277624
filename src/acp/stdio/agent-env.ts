import { isSecretEnvName } from "../../agents/tools/exec-env.js";

/**
 * The environment an ACP agent process starts with: the gateway's, without credentials (the
 * gateway token, provider API keys, anything named like a secret), plus exactly what the
 * agent's config gives it. A key an agent needs (e.g. ANTHROPIC_API_KEY for Claude Code) is
 * configured for that agent under `env`, and reaches no other.
 */
export function buildAgentEnv(base: NodeJS.ProcessEnv, configured: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isSecretEnvName(name) && !name.startsWith("OPENCLAW_")) env[name] = value;
  }
  return { ...env, ...configured };
}

import { BUILTIN_PROVIDERS } from "../../models/index.js";
import { needsProviderBlock, planNeedsKey, type OnboardPlan } from "./onboard-plan.js";

const yamlString = (value: string) => JSON.stringify(value);

/**
 * The config `openclaw onboard` writes: YAML with a comment on every key, no secret in it (the
 * provider key is a ${VAR} reference, the gateway token lives in credentials/gateway.token).
 */
export function renderOnboardConfig(plan: OnboardPlan, writtenAt: Date): string {
  const lines = [
    `# OpenClaw gateway configuration, written by \`openclaw onboard\` on ${writtenAt.toISOString().slice(0, 10)}.`,
    "# Every key is described in docs/configuration.md; `openclaw doctor` checks this file and the",
    "# installation around it. The gateway applies most edits live (hot reload).",
    "",
    "gateway:",
    "  mode: local            # this machine runs the gateway",
    `  port: ${plan.port}`,
    "  bind: loopback         # only this machine can connect; read docs/configuration.md before opening it",
    "  auth:",
    "    mode: token          # the token is in credentials/gateway.token (mode 0600), not in this file",
    "",
    "agents:",
    "  defaults:",
    "    model:",
    `      primary: ${yamlString(`${plan.provider}/${plan.model}`)}   # provider/model every agent uses unless it says otherwise`,
  ];
  const keyed = planNeedsKey(plan);
  if (needsProviderBlock(plan)) {
    const builtin = BUILTIN_PROVIDERS[plan.provider];
    lines.push(
      "",
      "models:",
      "  providers:",
      `    ${plan.provider}:`,
      `      baseUrl: ${yamlString(plan.baseUrl ?? builtin!.baseUrl)}`,
      `      api: ${plan.api ?? builtin!.api}`,
      keyed
        ? `      apiKey: ${yamlString(`\${${plan.apiKeyEnv}}`)}   # read from the environment when the gateway starts`
        : "      # no key: an Ollama server on this machine or the LAN takes requests without one",
    );
    if (!builtin) lines.push("      models:", `        - id: ${yamlString(plan.model)}`);
  } else if (keyed) {
    lines.push("", `# The ${plan.provider} key is read from ${plan.apiKeyEnv} in the gateway's environment.`);
  } else {
    lines.push("", `# ${plan.provider} is the Ollama server on this machine (${BUILTIN_PROVIDERS[plan.provider]!.baseUrl}); it needs no key.`);
  }
  return `${lines.join("\n")}\n`;
}

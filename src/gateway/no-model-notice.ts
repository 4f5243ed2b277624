import type { OpenClawConfig } from "../config/index.js";
import { defaultModelRef } from "../models/index.js";

const EXAMPLE_MODEL = "anthropic/claude-sonnet-4-5";

/**
 * The text a gateway prints at start when no agent has a model: every turn would fail, so the
 * user learns it now, with the lines to add to the config file and the key to export, instead of
 * at the first message. Undefined when a model is configured.
 */
export function noModelNotice(config: OpenClawConfig, configPath: string): string | undefined {
  if (defaultModelRef(config)) return undefined;
  const entries = [...(config.agents.list ?? []), ...Object.values(config.agents.entries ?? {})];
  if (entries.some((agent) => agent.model !== undefined)) return undefined;
  const json = /\.json5?$/.test(configPath);
  const lines = json ? [`  "agents": {`, `    "defaults": { "model": "${EXAMPLE_MODEL}" } },`] : [`agents:`, `  defaults: { model: ${EXAMPLE_MODEL} }`];
  return [
    `No model configured: the gateway runs, but every agent turn will fail until one is set.`,
    `Add these two lines to ${configPath}${json ? " (inside its top-level object)" : ""}:`,
    ...lines,
    `and export ANTHROPIC_API_KEY=… (or point a provider at a local server: README.md, "Quick start"; docs/models.md).`,
    `The gateway applies the change without a restart.`,
    "",
  ].join("\n");
}

import type { RawOpenClawConfig } from "./schema/index.js";

/** `tools.exec.mode`, OpenClaw's one knob for exec gating, as the `security` + `ask` pair it stands for. */
const MODES = {
  deny: { security: "deny", ask: "off" },
  allowlist: { security: "allowlist", ask: "off" },
  ask: { security: "allowlist", ask: "on-miss" },
  full: { security: "full", ask: "off" },
} as const;

export type ExecMode = keyof typeof MODES;

/**
 * The config with `tools.exec.mode` spelled out as `security` and `ask`, which the exec policy
 * reads; a `security` or `ask` the file also sets that says otherwise is overruled, with a warning.
 */
export function applyExecMode(config: RawOpenClawConfig, warnings: string[]): RawOpenClawConfig {
  const exec = config.tools?.exec;
  const mode = exec?.mode;
  // `auto` is refused by the cross-field rules.
  if (!exec || !mode || !Object.hasOwn(MODES, mode)) return config;
  const pair = MODES[mode as ExecMode];
  for (const key of ["security", "ask"] as const) {
    if (exec[key] !== undefined && exec[key] !== pair[key]) warnings.push(`tools.exec.${key} "${exec[key]}" is overruled by tools.exec.mode "${mode}" (${key} "${pair[key]}")`);
  }
  return { ...config, tools: { ...config.tools, exec: { ...exec, ...pair } } };
}

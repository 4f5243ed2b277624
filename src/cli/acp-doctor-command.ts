import pino from "pino";
import { resolveAcpSettings } from "../acp/config.js";
import { StdioAcpRuntime } from "../acp/stdio/stdio-runtime.js";
import { loadConfig, resolveStateDir } from "../config/index.js";
import { CliError } from "./output.js";

/**
 * `openclaw acp doctor`: starts each usable ACP agent once, as the gateway would, and reports
 * whether its command is found, whether it answers `initialize`, and its protocol version; a
 * missing adapter gets its install command. Exit code 1 when any agent fails.
 */
export async function acpDoctorCommand(flags: { json?: boolean }): Promise<void> {
  const { config } = loadConfig({ stateDir: resolveStateDir(process.env), env: process.env });
  const settings = resolveAcpSettings(config);
  const runtime = new StdioAcpRuntime({ settings: () => settings, logger: pino({ level: "silent" }) });
  const report = await runtime.doctor();
  if (flags.json) process.stdout.write(`${JSON.stringify({ enabled: settings.enabled, ...report }, null, 2)}\n`);
  else {
    const lines = [`ACP agents: ${settings.enabled ? "enabled" : "disabled (set acp.enabled: true to use them)"}`];
    for (const check of report.agents) {
      lines.push(`${check.ok ? "ok  " : "FAIL"} ${check.agent}: ${check.message}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (!report.ok) throw new CliError(`${report.agents.filter((a) => !a.ok).length} ACP agent(s) failed the check`);
}

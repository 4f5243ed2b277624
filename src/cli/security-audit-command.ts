import { loadConfig, resolveConfigPath, resolveStateDir } from "../config/index.js";
import { browserFindings, elevatedFindings, exposureFindings, gatewayFindings, mcpFindings, webhookFindings } from "./security/config-findings.js";
import { liveFindings } from "./security/deep-findings.js";
import { literalSecretFindings, permissionFindings } from "./security/file-findings.js";
import type { Finding, Severity } from "./security/finding.js";
import { printJson } from "./output.js";

const ORDER: Record<Severity, number> = { critical: 0, warn: 1, info: 2 };
const LIVE_CHECK_TIMEOUT_MS = 5_000;

/**
 * `openclaw security audit [--deep] [--json]`: what in this installation lets someone else in or
 * lets an agent do more than intended, most severe first, each with its fix. `--deep` also asks
 * the running gateway. Exit code 1 when a finding is critical. An invalid config is reported as
 * such (exit 78) by the config loader.
 */
export async function securityAuditCommand(flags: { deep?: boolean; json?: boolean }): Promise<void> {
  const env = process.env;
  const stateDir = resolveStateDir(env);
  const loaded = loadConfig({ stateDir, env });
  const configFile = resolveConfigPath(stateDir, env);
  const findings: Finding[] = [
    ...gatewayFindings(loaded.config, env),
    ...exposureFindings(loaded.config),
    ...webhookFindings(loaded.config, env),
    ...elevatedFindings(loaded.config),
    ...mcpFindings(loaded.config),
    ...browserFindings(loaded.config),
    ...permissionFindings(stateDir, configFile, loaded.includedFiles),
    ...literalSecretFindings(configFile),
    ...(flags.deep ? await liveFindings(stateDir, LIVE_CHECK_TIMEOUT_MS, loaded.config.gateway.tls) : []),
  ].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  const counts = { critical: 0, warn: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  if (flags.json) printJson({ ok: counts.critical === 0, counts, findings });
  else {
    const lines = findings.map((f) => `${f.severity.toUpperCase().padEnd(8)} ${f.id}: ${f.title}\n         fix: ${f.fix}`);
    lines.push(findings.length === 0 ? "No findings." : `${counts.critical} critical, ${counts.warn} warning(s), ${counts.info} note(s)`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (counts.critical > 0) process.exitCode = 1;
}

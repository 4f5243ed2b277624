import { resolveStateDir } from "../config/index.js";
import type { DoctorCheck, DoctorContext } from "./doctor/check.js";
import { checkConfig, checkNode, checkPermissions, checkStaleFiles } from "./doctor/local-checks.js";
import { checkChannels, checkPort, checkProvider } from "./doctor/network-checks.js";
import { checkServiceStopTimeout } from "./doctor/service-checks.js";
import { checkAcp, checkMemory } from "./doctor/subsystem-checks.js";
import { checkMcp } from "./doctor/mcp-checks.js";
import { printJson } from "./output.js";

/** Each network check (provider, channel) gives up after this long. */
const NETWORK_CHECK_TIMEOUT_MS = 10_000;

const MARK: Record<DoctorCheck["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

/** Every check, in the order a person would fix things: runtime, config, files, service, network, subsystems. */
export async function runDoctor(ctx: DoctorContext): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [checkNode(), checkConfig(ctx), ...checkPermissions(ctx), checkStaleFiles(ctx), checkServiceStopTimeout(ctx)];
  checks.push(await checkPort(ctx));
  checks.push(await checkProvider(ctx));
  checks.push(...(await checkChannels(ctx)));
  checks.push(await checkMemory(ctx));
  checks.push(...(await checkAcp(ctx)));
  checks.push(...checkMcp(ctx));
  return checks;
}

/**
 * `openclaw doctor [--fix] [--json]`: what is wrong with this installation and how to fix it.
 * `--fix` applies only safe repairs (file modes, stale lock/pid files, a missing state dir) and
 * says what it changed. Exit code 1 when a check fails.
 */
export async function doctorCommand(flags: { fix?: boolean; json?: boolean }): Promise<void> {
  const ctx: DoctorContext = {
    env: process.env,
    stateDir: resolveStateDir(process.env),
    fix: flags.fix === true,
    timeoutMs: NETWORK_CHECK_TIMEOUT_MS,
  };
  const checks = await runDoctor(ctx);
  const ok = !checks.some((c) => c.status === "fail");
  const fixed = checks.filter((c) => c.fixed).map((c) => c.fixed!);
  if (flags.json) printJson({ ok, stateDir: ctx.stateDir, checks, fixed });
  else {
    const lines = checks.map((c) => `${MARK[c.status]} ${c.message}${c.fixed ? `\n     fixed: ${c.fixed}` : c.fix && c.status !== "ok" ? `\n     fix: ${c.fix}` : ""}`);
    const failed = checks.filter((c) => c.status === "fail").length;
    const warned = checks.filter((c) => c.status === "warn").length;
    lines.push(
      "",
      failed || warned ? `${failed} problem(s), ${warned} warning(s)${ctx.fix ? "" : "; `openclaw doctor --fix` repairs what is safe to repair"}` : "Everything looks fine.",
    );
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (!ok) process.exitCode = 1;
}

import fs from "node:fs";
import { defaultConfigPathForWrite, existingConfigCandidates, loadConfigFromBytes, ConfigError } from "../../config/index.js";
import { ensurePersistedToken } from "../../gateway/auth/gateway-token.js";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";
import { probeProvider, resolveModel, type ProviderProbe } from "../../models/index.js";
import { CliError } from "../output.js";
import { renderOnboardConfig } from "./config-template.js";
import { planNeedsKey, type OnboardPlan } from "./onboard-plan.js";

export interface OnboardOptions {
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** Replace an existing config (the old file is kept as <file>.bak). */
  force: boolean;
  /** Write without asking the provider (offline set-up). */
  skipCheck: boolean;
}

export interface OnboardResult {
  configFile: string;
  backups: string[];
  tokenFile: string;
  tokenGenerated: boolean;
  check: ProviderProbe | "skipped";
}

/** Where onboarding writes: $OPENCLAW_CONFIG_PATH (a YAML file) or <state>/openclaw.yaml. */
export function onboardTarget(opts: Pick<OnboardOptions, "stateDir" | "env">): { file: string; existing: string[] } {
  const explicit = opts.env.OPENCLAW_CONFIG_PATH?.trim();
  if (explicit && !/\.ya?ml$/i.test(explicit)) throw new CliError(`onboard writes YAML; OPENCLAW_CONFIG_PATH (${explicit}) must name a .yaml file`);
  const file = explicit || defaultConfigPathForWrite(opts.stateDir);
  const existing = explicit ? (fs.existsSync(file) ? [file] : []) : existingConfigCandidates(opts.stateDir);
  return { file, existing };
}

/** The provider check alone: the config as it would be written, one request to the provider. */
export async function checkPlanProvider(
  plan: OnboardPlan,
  opts: Pick<OnboardOptions, "stateDir" | "env">,
): Promise<ProviderProbe | { ok: false; problem: string; fix: string; url: string }> {
  const { file } = onboardTarget(opts);
  let config;
  try {
    config = loadConfigFromBytes(Buffer.from(renderOnboardConfig(plan, new Date())), file, opts.env).config;
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`the config onboarding would write is invalid: ${err.message}`);
    throw err;
  }
  const resolved = resolveModel(undefined, config, opts.env);
  if (!resolved.ok) {
    const fix = planNeedsKey(plan) ? `export ${plan.apiKeyEnv}=<your key> and run onboard again` : "give the Ollama server's root URL (without /v1) and run onboard again";
    return { ok: false, url: "", problem: resolved.message, fix };
  }
  return probeProvider(resolved.model);
}

/**
 * Checks the provider (unless skipped), then writes the commented config (0600) and makes sure a
 * gateway token exists. A failed check writes nothing.
 */
export async function applyOnboardPlan(plan: OnboardPlan, opts: OnboardOptions): Promise<OnboardResult> {
  const { file, existing } = onboardTarget(opts);
  if (existing.length > 0 && !opts.force) {
    throw new CliError(`a config already exists (${existing.join(", ")}); pass --force to replace it (the old file is kept as .bak), or edit it with \`openclaw config set\``);
  }
  const check = opts.skipCheck ? "skipped" : await checkPlanProvider(plan, opts);
  if (check !== "skipped" && !check.ok) throw new CliError(`provider check failed, nothing was written: ${check.problem}\n  fix: ${check.fix}`);

  ensurePrivateDir(opts.stateDir);
  const backups = existing.map((old) => {
    fs.renameSync(old, `${old}.bak`);
    return `${old}.bak`;
  });
  writeFileAtomicSync(file, renderOnboardConfig(plan, new Date()), 0o600);
  const token = ensurePersistedToken(opts.stateDir);
  return { configFile: file, backups, tokenFile: token.file, tokenGenerated: token.generated, check };
}

/** What to run after onboarding, in order. */
export function nextSteps(plan: OnboardPlan, env: NodeJS.ProcessEnv): string[] {
  const steps: string[] = [];
  if (planNeedsKey(plan) && !env[plan.apiKeyEnv]) steps.push(`export ${plan.apiKeyEnv}=<your ${plan.provider} key>   # the gateway reads the key from its environment`);
  steps.push(
    "openclaw gateway start          # run the gateway in the background (or `openclaw gateway install` for a service)",
    "openclaw dashboard              # the Control UI's link, signed in",
    'openclaw agent -m "hello"       # a first message from the terminal',
    "openclaw doctor                 # check everything again at any time",
  );
  return steps;
}

import { DEFAULT_GATEWAY_PORT, resolveStateDir } from "../../config/index.js";
import { CliError, parseFixedPortFlag, printJson } from "../output.js";
import { applyOnboardPlan, nextSteps, type OnboardResult } from "./apply-plan.js";
import { checkPlan, DEFAULT_MODELS, defaultKeyEnv, planNeedsKey, type OnboardPlan } from "./onboard-plan.js";

export interface OnboardFlags {
  nonInteractive?: boolean;
  provider?: string;
  apiKeyEnv?: string;
  model?: string;
  baseUrl?: string;
  api?: string;
  port?: string;
  force?: boolean;
  skipCheck?: boolean;
  json?: boolean;
}

/** The flags that answer the questions; the interactive set-up takes only `--port` from the command line. */
const ANSWER_FLAGS = [
  ["provider", "--provider"],
  ["model", "--model"],
  ["apiKeyEnv", "--api-key-env"],
  ["baseUrl", "--base-url"],
  ["api", "--api"],
  ["json", "--json"],
] as const satisfies readonly (readonly [keyof OnboardFlags, string])[];

function planFromFlags(flags: OnboardFlags): OnboardPlan {
  if (!flags.provider) throw new CliError("--provider is required with --non-interactive (anthropic, openai, ollama, or your own id with --base-url and --api)");
  const provider = flags.provider.toLowerCase();
  const model = flags.model ?? DEFAULT_MODELS[provider];
  if (!model) throw new CliError(`--model is required for provider "${provider}"`);
  return checkPlan({
    provider,
    model,
    apiKeyEnv: flags.apiKeyEnv ?? defaultKeyEnv(provider),
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.api ? { api: flags.api } : {}),
    port: parseFixedPortFlag(flags.port) ?? DEFAULT_GATEWAY_PORT,
  });
}

function report(result: OnboardResult, plan: OnboardPlan, json: boolean): void {
  const steps = nextSteps(plan, process.env);
  if (json) {
    printJson({
      ok: true,
      configFile: result.configFile,
      backups: result.backups,
      tokenFile: result.tokenFile,
      tokenGenerated: result.tokenGenerated,
      model: `${plan.provider}/${plan.model}`,
      providerCheck: result.check === "skipped" ? "skipped" : "ok",
      next: steps,
    });
    return;
  }
  const lines = [
    `Wrote ${result.configFile}${result.backups.length ? ` (the old config is in ${result.backups.join(", ")})` : ""}`,
    `${result.tokenGenerated ? "Generated" : "Kept"} the gateway token in ${result.tokenFile} (mode 0600)`,
    result.check === "skipped" ? "Provider check skipped (--skip-check)" : `Provider ${plan.provider} answered${planNeedsKey(plan) ? " and accepted the key" : " (no key needed)"}`,
    "",
    "Next:",
    ...steps.map((s) => `  ${s}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * `openclaw onboard`: a first config (commented YAML), a gateway token, and a provider that is
 * known to answer. Interactive on a terminal; `--non-interactive` takes everything from flags.
 */
export async function onboardCommand(flags: OnboardFlags): Promise<void> {
  const stateDir = resolveStateDir(process.env);
  const options = { stateDir, env: process.env, force: flags.force === true, skipCheck: flags.skipCheck === true };
  if (flags.nonInteractive) {
    const plan = planFromFlags(flags);
    report(await applyOnboardPlan(plan, options), plan, flags.json === true);
    return;
  }
  const answers = ANSWER_FLAGS.filter(([key]) => flags[key] !== undefined).map(([, flag]) => flag);
  if (answers.length > 0) throw new CliError(`${answers.join(", ")}: only with --non-interactive (the interactive set-up asks for these); add --non-interactive to use them`);
  if (!process.stdin.isTTY) throw new CliError("onboard asks questions on a terminal; without one, pass --non-interactive --provider … --api-key-env … --model …");
  const { runOnboardPrompts } = await import("./onboard-prompts.js");
  await runOnboardPrompts(options, { ...(flags.port ? { port: parseFixedPortFlag(flags.port) } : {}) });
}

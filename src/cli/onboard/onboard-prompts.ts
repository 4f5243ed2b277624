import { cancel, confirm, intro, isCancel, log, note, outro, select, spinner, text } from "@clack/prompts";
import { DEFAULT_GATEWAY_PORT } from "../../config/index.js";
import { BUILTIN_PROVIDERS, SUPPORTED_APIS } from "../../models/index.js";
import { applyOnboardPlan, checkPlanProvider, nextSteps, onboardTarget, type OnboardOptions } from "./apply-plan.js";
import { DEFAULT_MODELS, defaultKeyEnv, planNeedsKey, PROVIDER_ID, type OnboardPlan } from "./onboard-plan.js";

class Cancelled extends Error {}

/** A prompt's answer, or the end of the set-up when the user pressed Ctrl-C / Esc. */
function answer<T>(value: T): Exclude<T, symbol> {
  if (isCancel(value)) throw new Cancelled();
  return value as Exclude<T, symbol>;
}

const validPort = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= 65535 ? undefined : "a port from 1 to 65535";
};

async function askPlan(env: NodeJS.ProcessEnv, preset: { port?: number }): Promise<OnboardPlan> {
  const choice = answer(
    await select({
      message: "Which model provider?",
      options: [
        { value: "anthropic", label: "Anthropic", hint: "ANTHROPIC_API_KEY" },
        { value: "openai", label: "OpenAI", hint: "OPENAI_API_KEY" },
        { value: "ollama", label: "Ollama", hint: "a server on this machine or the LAN, no key" },
        { value: "custom", label: "Another server", hint: "OpenAI- or Anthropic-compatible, e.g. a local model" },
      ],
    }),
  );
  let provider: string = choice;
  let baseUrl: string | undefined;
  let api: string | undefined;
  if (choice === "custom") {
    provider = answer(
      await text({ message: "A short id for it", placeholder: "local", validate: (v) => (PROVIDER_ID.test(v ?? "") ? undefined : "lower-case letters, digits and -") }),
    );
    baseUrl = answer(
      await text({ message: "Its base URL", placeholder: "http://127.0.0.1:11434/v1", validate: (v) => (/^https?:\/\/\S+$/.test(v ?? "") ? undefined : "an http(s) URL") }),
    );
    api = answer(await select({ message: "Which wire format does it speak?", options: SUPPORTED_APIS.map((value) => ({ value, label: value })) }));
  } else if (choice === "ollama") {
    const defaultUrl = BUILTIN_PROVIDERS.ollama!.baseUrl;
    const url = answer(
      await text({ message: "The Ollama server's URL (no /v1)", initialValue: defaultUrl, validate: (v) => (/^https?:\/\/\S+$/.test(v ?? "") ? undefined : "an http(s) URL") }),
    ).replace(/\/+$/, "");
    if (url !== defaultUrl) baseUrl = url;
  }
  const model = answer(await text({ message: "Model", initialValue: DEFAULT_MODELS[provider] ?? "", validate: (v) => (v?.trim() && !/\s/.test(v) ? undefined : "a model id") }));
  const keyless = !planNeedsKey({ provider, model, apiKeyEnv: defaultKeyEnv(provider), ...(baseUrl ? { baseUrl } : {}), ...(api ? { api } : {}), port: DEFAULT_GATEWAY_PORT });
  const apiKeyEnv = keyless
    ? defaultKeyEnv(provider)
    : answer(
        await text({
          message: "Environment variable that holds the API key",
          initialValue: defaultKeyEnv(provider),
          validate: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v ?? "") ? undefined : "a variable name"),
        }),
      );
  if (!keyless && !env[apiKeyEnv]) log.warn(`${apiKeyEnv} is not set in this shell, so the provider cannot be checked now.`);
  const port = preset.port ?? Number(answer(await text({ message: "Gateway port", initialValue: String(DEFAULT_GATEWAY_PORT), validate: validPort })));
  return { provider, model: model.trim(), apiKeyEnv, ...(baseUrl ? { baseUrl } : {}), ...(api ? { api } : {}), port };
}

/** The interactive set-up: questions, one provider check, then the same writes as --non-interactive. */
export async function runOnboardPrompts(options: OnboardOptions, preset: { port?: number }): Promise<void> {
  intro("OpenClaw set-up");
  try {
    const { existing } = onboardTarget(options);
    let force = options.force;
    if (existing.length > 0 && !force) {
      force = answer(await confirm({ message: `A config exists (${existing.join(", ")}). Replace it? The old one is kept as .bak.`, initialValue: false }));
      if (!force) {
        outro("Nothing changed. `openclaw config set` edits the existing config.");
        return;
      }
    }
    const plan = await askPlan(options.env, preset);
    let checked = false;
    if (options.skipCheck) log.info("Provider check skipped (--skip-check).");
    else {
      const spin = spinner();
      spin.start(`Asking ${plan.provider} for its model list`);
      const check = await checkPlanProvider(plan, options);
      spin.stop(check.ok ? `${plan.provider} answered${planNeedsKey(plan) ? " and accepted the key" : " (no key needed)"}` : `${plan.provider}: ${check.problem}`);
      checked = check.ok;
      if (!check.ok && !answer(await confirm({ message: `Write the config anyway? (fix: ${check.fix})`, initialValue: false }))) {
        outro("Nothing was written.");
        process.exitCode = 1;
        return;
      }
    }
    const result = await applyOnboardPlan(plan, { ...options, force, skipCheck: true });
    log.success(`Wrote ${result.configFile}${result.backups.length ? ` (old config: ${result.backups.join(", ")})` : ""}`);
    log.success(`${result.tokenGenerated ? "Generated" : "Kept"} the gateway token in ${result.tokenFile}`);
    if (!checked) log.warn("The provider was not checked; `openclaw doctor` checks it once the key is set.");
    note(nextSteps(plan, options.env).join("\n"), "Next");
    outro("Done.");
  } catch (err) {
    if (!(err instanceof Cancelled)) throw err;
    cancel("Set-up cancelled; nothing was written.");
    process.exitCode = 1;
  }
}

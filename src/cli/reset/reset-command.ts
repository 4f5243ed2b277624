import { resolveStateDir } from "../../config/index.js";
import { readLiveLock } from "../../gateway/state-lock.js";
import { askChoice, askConfirm, canAsk } from "../ask.js";
import { CliError } from "../output.js";
import { printable } from "../printable.js";
import { isResetScope, RESET_SCOPES, resetPlan, type ResetScope } from "./reset-plan.js";
import { moveToTrash } from "./trash.js";

export interface ResetFlags {
  scope?: string;
  yes?: boolean;
  nonInteractive?: boolean;
  dryRun?: boolean;
}

const SCOPE_CHOICES: { value: ResetScope; label: string; hint: string }[] = [
  { value: "config", label: "Config only", hint: "the config file" },
  { value: "config+creds+sessions", label: "Config + credentials + sessions", hint: "keeps workspaces and model keys" },
  { value: "full", label: "Full reset", hint: "the state dir and the workspaces" },
];

/**
 * `openclaw reset [--scope] [--yes] [--non-interactive] [--dry-run]`: OpenClaw's reset of the local
 * config and state (reset-plan.ts says what each scope takes). Everything goes to the Trash,
 * nothing is deleted; a path that cannot go there stays and is named (exit 1). A plan with a
 * refused path (the home folder, one holding the working folder) moves nothing. A reset wider than
 * the config needs the gateway stopped: this command does not stop it, it refuses and says so.
 */
export async function resetCommand(flags: ResetFlags): Promise<void> {
  if (flags.nonInteractive && !flags.yes) throw new CliError("Non-interactive mode requires --yes.");
  const scope = await chosenScope(flags);
  if (scope === undefined) return void process.stdout.write("Reset cancelled; nothing was changed.\n");

  const stateDir = resolveStateDir(process.env);
  const gateway = scope === "config" ? undefined : readLiveLock(stateDir);
  if (gateway) {
    throw new CliError(
      `A gateway is running on ${stateDir} (pid ${gateway.pid}, port ${gateway.port}): stop it first (openclaw gateway stop), then reset again. Nothing was changed.`,
    );
  }
  const plan = resetPlan(scope, stateDir, process.env);
  for (const warning of plan.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (plan.refused.length > 0) {
    throw new CliError(`${plan.refused.map(({ path, why }) => `Refusing to move ${printable(path)}: ${why}.`).join("\n")}\nNothing was changed.`);
  }
  if (plan.targets.length === 0) return void process.stdout.write(`Nothing to reset for scope ${scope}: none of its files exist.\n`);
  if (scope !== "config") process.stdout.write("Recommended first: openclaw backup create\n");
  if (!flags.yes && !flags.dryRun) {
    if (!canAsk()) throw new CliError(`Resetting needs confirmation: without a terminal, pass --yes (openclaw reset --scope ${scope} --yes). Nothing was changed.`);
    const list = plan.targets.map((t) => `  ${t.what}: ${printable(t.path)}`).join("\n");
    if (!(await askConfirm(`Move to the Trash:\n${list}\nProceed with ${scope} reset?`, false))) return void process.stdout.write("Reset cancelled; nothing was changed.\n");
  }

  const failed: string[] = [];
  for (const target of plan.targets) {
    if (flags.dryRun) {
      process.stdout.write(`[dry-run] move to the Trash: ${printable(target.path)} (${target.what})\n`);
      continue;
    }
    const outcome = moveToTrash(target.path);
    if (outcome.kind === "trashed") process.stdout.write(`Moved to the Trash: ${printable(target.path)} (${target.what})\n`);
    else if (outcome.kind === "failed") failed.push(`${printable(target.path)}: ${outcome.reason}`);
  }
  if (failed.length > 0) throw new CliError(`Could not move to the Trash (delete by hand if you want them gone):\n${failed.map((f) => `  ${f}`).join("\n")}`);
  if (scope !== "config" && !flags.dryRun) process.stdout.write("Next: openclaw onboard\n");
}

async function chosenScope(flags: ResetFlags): Promise<ResetScope | undefined> {
  if (flags.scope !== undefined) {
    if (!isResetScope(flags.scope)) throw new CliError(`Invalid --scope "${flags.scope}": expected ${RESET_SCOPES.map((s) => `"${s}"`).join(", ")}.`);
    return flags.scope;
  }
  if (flags.nonInteractive) throw new CliError("Non-interactive mode requires --scope.");
  if (!canAsk()) throw new CliError(`Pass --scope (${RESET_SCOPES.join(" | ")}): there is no terminal to ask on. Nothing was changed.`);
  return askChoice("Reset scope", SCOPE_CHOICES, "config+creds+sessions");
}

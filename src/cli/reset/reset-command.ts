import fs from "node:fs";
import { resolveStateDir } from "../../config/index.js";
import { waitForExit } from "../../infra/process-alive.js";
import { gatewayServiceFile, stopGatewayService } from "../service/service-command.js";
import { type LockInfo, readLiveLock } from "../../gateway/state-lock.js";
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
 * the config needs the gateway stopped: a running gateway service (`openclaw gateway install`) is
 * stopped first, as OpenClaw's reset does; a gateway it does not manage is refused and named.
 */
export async function resetCommand(flags: ResetFlags): Promise<void> {
  if (flags.nonInteractive && !flags.yes) throw new CliError("Non-interactive mode requires --yes.");
  const scope = await chosenScope(flags);
  if (scope === undefined) return void process.stdout.write("Reset cancelled; nothing was changed.\n");

  const stateDir = resolveStateDir(process.env);
  const gateway = scope === "config" ? undefined : runningGateway(stateDir);
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
    const stopFirst = gateway ? `Stop the gateway service first (pid ${gateway.lock.pid}).\n` : "";
    if (!(await askConfirm(`${stopFirst}Move to the Trash:\n${list}\nProceed with ${scope} reset?`, false)))
      return void process.stdout.write("Reset cancelled; nothing was changed.\n");
  }

  if (gateway) await stopThroughService(gateway, stateDir, flags.dryRun === true);
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

/** How long a stopped service's gateway may take to let go of the state dir. */
const SERVICE_EXIT_GRACE_MS = 3000;

interface RunningGateway {
  lock: LockInfo;
  refusal: (why: string) => CliError;
}

/**
 * The gateway running on the state dir, which a wider reset stops through its service first; one
 * no installed service manages is not this command's to stop: refused, named, nothing changed.
 */
function runningGateway(stateDir: string): RunningGateway | undefined {
  const lock = readLiveLock(stateDir);
  if (!lock) return undefined;
  const refusal = (why: string) =>
    new CliError(`A gateway is running on ${stateDir} (pid ${lock.pid}, port ${lock.port})${why}: stop it first (openclaw gateway stop), then reset again. Nothing was changed.`);
  if (!installedServiceFile()) throw refusal("");
  return { lock, refusal };
}

/** Stops the service and waits for its gateway to let go of the state dir; one still running is refused. */
async function stopThroughService(gateway: RunningGateway, stateDir: string, dryRun: boolean): Promise<void> {
  if (dryRun) return void process.stdout.write(`[dry-run] stop the gateway service (pid ${gateway.lock.pid})\n`);
  const service = stopGatewayService();
  if (!(await waitForExit(gateway.lock.pid, SERVICE_EXIT_GRACE_MS)) || readLiveLock(stateDir)) {
    throw gateway.refusal(`, and stopping the gateway service (${service}) did not stop it`);
  }
  process.stdout.write(`Stopped the gateway service (${service}); it starts again at the next login until \`openclaw gateway uninstall\`.\n`);
}

/** The gateway's service file when one is installed on this platform. */
function installedServiceFile(): string | undefined {
  try {
    const file = gatewayServiceFile();
    return fs.existsSync(file) ? file : undefined;
  } catch {
    // A platform without a service manager this CLI installs into has no managed gateway.
    return undefined;
  }
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

import fs from "node:fs";
import { resolveStateDir } from "../../config/index.js";
import { readLiveLock } from "../../gateway/state-lock.js";
import { askConfirm, askChoices, canAsk } from "../ask.js";
import { CliError } from "../output.js";
import { printable } from "../printable.js";
import { gatewayServiceFile, removeGatewayService } from "../service/service-command.js";
import { moveToTrash } from "./trash.js";
import { uninstallPlan } from "./uninstall-plan.js";

export interface UninstallFlags {
  service?: boolean;
  state?: boolean;
  workspace?: boolean;
  app?: boolean;
  all?: boolean;
  yes?: boolean;
  nonInteractive?: boolean;
  dryRun?: boolean;
}

type Scope = "service" | "state" | "workspace" | "app";

const SCOPE_CHOICES: { value: Scope; label: string; hint: string }[] = [
  { value: "service", label: "Gateway service", hint: "the systemd user unit or launchd agent" },
  { value: "state", label: "State and config", hint: "to the Trash" },
  { value: "workspace", label: "Workspaces", hint: "to the Trash" },
  { value: "app", label: "macOS app", hint: "not applicable here" },
];

/**
 * `openclaw uninstall [--service] [--state] [--workspace] [--app] [--all] [--yes]
 * [--non-interactive] [--dry-run]`: OpenClaw's uninstall of the gateway service and local data.
 * The service goes first (stopped, its file removed); a service that could not be removed keeps
 * the state and workspaces where they are. State and workspaces go to the Trash (nothing is
 * deleted), and only once no gateway runs on the state dir. There is no app here: `--app` says so.
 * Every requested scope is reported; the exit is 1 when any failed or was refused.
 */
export async function uninstallCommand(flags: UninstallFlags): Promise<void> {
  if (flags.nonInteractive && !flags.yes) throw new CliError("Non-interactive mode requires --yes.");
  const scopes = await chosenScopes(flags);
  if (scopes === undefined || scopes.size === 0) return void process.stdout.write("Uninstall cancelled; nothing was changed.\n");

  const stateDir = resolveStateDir(process.env);
  const files =
    scopes.has("state") || scopes.has("workspace") ? uninstallPlan({ state: scopes.has("state"), workspace: scopes.has("workspace") }, stateDir, process.env) : undefined;
  if (files && files.refused.length > 0) {
    throw new CliError(`${files.refused.map(({ path, why }) => `Refusing to move ${printable(path)}: ${why}.`).join("\n")}\nNothing was changed.`);
  }
  for (const warning of files?.warnings ?? []) process.stderr.write(`warning: ${warning}\n`);
  const serviceFile = scopes.has("service") ? gatewayServiceFile() : undefined;
  const serviceInstalled = serviceFile !== undefined && fs.existsSync(serviceFile);

  if (files && files.targets.length > 0) process.stdout.write("Recommended first: openclaw backup create\n");
  if (!flags.yes && !flags.dryRun) {
    if (!canAsk()) throw new CliError("Uninstalling needs confirmation: without a terminal, pass --yes. Nothing was changed.");
    const lines = [
      ...(serviceInstalled ? [`  stop and remove the gateway service: ${printable(serviceFile!)}`] : []),
      ...(files?.targets ?? []).map((t) => `  move to the Trash: ${printable(t.path)} (${t.what})`),
    ];
    if (lines.length > 0 && !(await askConfirm(`${lines.join("\n")}\nProceed?`, false))) return void process.stdout.write("Uninstall cancelled; nothing was changed.\n");
  }

  const failures: string[] = [];
  let filesBlocked: string | undefined;
  if (scopes.has("service")) {
    if (!serviceInstalled) process.stdout.write(`service: not installed (no ${printable(serviceFile!)})\n`);
    else if (flags.dryRun) process.stdout.write(`[dry-run] stop and remove the gateway service: ${printable(serviceFile!)}\n`);
    else {
      try {
        removeGatewayService();
        process.stdout.write(`Stopped the gateway service and removed ${printable(serviceFile!)}\n`);
      } catch (err) {
        failures.push(`service: ${(err as Error).message}`);
        filesBlocked = "the gateway service could not be removed";
      }
    }
  }
  if (files && !flags.dryRun && !filesBlocked) {
    const gateway = readLiveLock(stateDir);
    if (gateway) filesBlocked = `a gateway is running on ${stateDir} (pid ${gateway.pid}, port ${gateway.port}): stop it first (openclaw gateway stop)`;
  }
  if (files) {
    if (filesBlocked) failures.push(`state and workspaces kept: ${filesBlocked}`);
    else moveFiles(files, flags.dryRun === true, failures);
  }
  if (scopes.has("app")) process.stdout.write("app: not applicable (this gateway has no macOS app)\n");
  if (failures.length > 0) throw new CliError(failures.join("\n"));
}

function moveFiles(files: ReturnType<typeof uninstallPlan>, dryRun: boolean, failures: string[]): void {
  if (files.targets.length === 0) process.stdout.write("state and workspaces: none of their files exist\n");
  for (const target of files.targets) {
    if (dryRun) {
      process.stdout.write(`[dry-run] move to the Trash: ${printable(target.path)} (${target.what})\n`);
      continue;
    }
    const outcome = moveToTrash(target.path);
    if (outcome.kind === "trashed") process.stdout.write(`Moved to the Trash: ${printable(target.path)} (${target.what})\n`);
    else if (outcome.kind === "failed") failures.push(`could not move ${printable(target.path)} to the Trash (delete it by hand if you want it gone): ${outcome.reason}`);
  }
  for (const entry of files.kept) process.stdout.write(`Kept ${printable(entry)}: it holds a workspace (add --workspace to move it too)\n`);
}

async function chosenScopes(flags: UninstallFlags): Promise<Set<Scope> | undefined> {
  const all = flags.all === true;
  const chosen = new Set<Scope>((["service", "state", "workspace", "app"] as const).filter((scope) => all || flags[scope] === true));
  if (chosen.size > 0) return chosen;
  if (flags.nonInteractive) throw new CliError("Non-interactive mode requires a scope: --service, --state, --workspace, --app or --all.");
  if (!canAsk()) throw new CliError("Pass what to uninstall (--service, --state, --workspace, --app or --all): there is no terminal to ask on. Nothing was changed.");
  const picked = await askChoices("What to uninstall", SCOPE_CHOICES, ["service"]);
  return picked && new Set(picked);
}

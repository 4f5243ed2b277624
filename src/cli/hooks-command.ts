import { defaultAgentId } from "../agents/agent-config.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import { ConfigError, defaultConfigPathForWrite, loadConfig, resolveConfigPath, resolveStateDir, setConfigValueInFile, type OpenClawConfig } from "../config/index.js";
import { resolveBundledHooksDir } from "../hooks/internal/bundled-hooks-dir.js";
import { discoverHooks, type DiscoveredHook } from "../hooks/internal/discover-hooks.js";
import { EMITTED_HOOK_EVENTS } from "../hooks/internal/emitted-events.js";
import { hookEnabled } from "../hooks/internal/hook-runner.js";
import { CliError, printJson } from "./output.js";

/** `openclaw hooks …` reads the hook folders and the config file directly; a running gateway picks changes up on reload. */
function discovered(): { config: OpenClawConfig; stateDir: string; hooks: DiscoveredHook[] } {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const hooks = discoverHooks({
    bundledDir: resolveBundledHooksDir(),
    stateDir,
    extraDirs: config.hooks?.internal?.load?.extraDirs ?? [],
    workspaceDir: resolveWorkspaceDir(config, defaultAgentId(config), stateDir, process.env),
  });
  return { config, stateDir, hooks };
}

/** Events a hook listens to that this gateway never emits (a typo, or another gateway's event). */
function unknownEventsOf(hook: DiscoveredHook): string[] {
  return hook.events.filter((event) => !EMITTED_HOOK_EVENTS.has(event));
}

function describe(hook: DiscoveredHook, config: OpenClawConfig) {
  const unknownEvents = unknownEventsOf(hook);
  return {
    name: hook.name,
    description: hook.description,
    source: hook.source,
    events: hook.events,
    enabled: hookEnabled(config, hook.name),
    dir: hook.dir,
    ...(hook.emoji ? { emoji: hook.emoji } : {}),
    ...(hook.handlerPath ? { handler: hook.handlerPath } : {}),
    ...(hook.problem ? { problem: hook.problem } : {}),
    ...(unknownEvents.length > 0 ? { unknownEvents } : {}),
  };
}

function neverFires(events: string[]): string {
  return `never emitted here: ${events.join(", ")} (docs/automation.md#internal-hooks lists the events)`;
}

export function hooksListCommand(flags: { json?: boolean }): void {
  const { config, hooks } = discovered();
  const rows = hooks.map((h) => describe(h, config));
  if (flags.json) return printJson({ internalEnabled: config.hooks?.internal?.enabled !== false, hooks: rows });
  if (rows.length === 0) return void process.stdout.write("No hooks found\n");
  for (const h of rows) {
    process.stdout.write(
      `${h.enabled ? "on " : "off"}  ${h.emoji ?? " "} ${h.name.padEnd(20)} ${h.source.padEnd(9)} ${h.events.join(", ")}${h.problem ? `  (cannot run: ${h.problem})` : ""}${h.unknownEvents ? `  (${neverFires(h.unknownEvents)})` : ""}\n`,
    );
  }
  if (config.hooks?.internal?.enabled === false) process.stdout.write("hooks.internal.enabled is false: no hook runs\n");
}

export function hooksInfoCommand(name: string, flags: { json?: boolean }): void {
  const { config, hooks } = discovered();
  const hook = find(hooks, name);
  const info = describe(hook, config);
  if (flags.json) return printJson(info);
  process.stdout.write(
    [
      `${info.emoji ? `${info.emoji} ` : ""}${info.name} (${info.source}, ${info.enabled ? "enabled" : "disabled"})`,
      info.description,
      `Events: ${info.events.join(", ") || "none"}${info.unknownEvents ? ` (${neverFires(info.unknownEvents)})` : ""}`,
      `Folder: ${info.dir}`,
      info.handler ? `Handler: ${info.handler}` : `Cannot run: ${info.problem}`,
      "",
    ].join("\n"),
  );
}

/** Why a discovered hook would not run now: switched off, or unable to run (no handler, bad HOOK.md). Empty when it is ready. */
function blockedReasons(hook: DiscoveredHook, config: OpenClawConfig): string[] {
  const internal = config.hooks?.internal;
  const reasons: string[] = [];
  if (internal?.enabled === false) reasons.push("hooks.internal.enabled is false");
  else if (internal?.entries?.[hook.name]?.enabled === false) reasons.push("disabled in config");
  else if (!hookEnabled(config, hook.name)) reasons.push(`disabled by default (openclaw hooks enable ${hook.name})`);
  if (hook.problem) reasons.push(`cannot run: ${hook.problem}`);
  return reasons;
}

/**
 * `openclaw hooks check`: how many discovered hooks are ready (on and able to run) and, for the
 * others, why not. Exits 0 either way: it reports, it does not gate.
 */
export function hooksCheckCommand(flags: { json?: boolean }): void {
  const { config, hooks } = discovered();
  const checked = hooks.map((hook) => ({ hook, reasons: blockedReasons(hook, config) }));
  const ready = checked.filter((c) => c.reasons.length === 0);
  const notReady = checked.filter((c) => c.reasons.length > 0);
  if (flags.json) {
    return printJson({
      total: hooks.length,
      eligible: ready.length,
      notEligible: notReady.length,
      hooks: { eligible: ready.map((c) => c.hook.name), notEligible: notReady.map((c) => ({ name: c.hook.name, blockedReason: c.reasons.join("; ") })) },
    });
  }
  const lines = ["Hooks Status", "", `Total hooks: ${hooks.length}`, `Ready: ${ready.length}`, `Not ready: ${notReady.length}`];
  if (notReady.length > 0) {
    lines.push("", "Hooks not ready:");
    for (const { hook, reasons } of notReady) lines.push(`  ${hook.emoji ? `${hook.emoji} ` : ""}${hook.name} - ${reasons.join("; ")}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function hooksSetEnabledCommand(name: string, enabled: boolean, flags: { json?: boolean }): void {
  const { stateDir, hooks } = discovered();
  const hook = find(hooks, name);
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  try {
    setConfigValueInFile(file, `hooks.internal.entries.${hook.name}.enabled`, enabled, process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
  if (flags.json) return printJson({ ok: true, name: hook.name, enabled, file, ...(hook.problem ? { problem: hook.problem } : {}) });
  const unknownEvents = unknownEventsOf(hook);
  process.stdout.write(
    `${enabled ? "Enabled" : "Disabled"} ${hook.name} in ${file}${hook.problem && enabled ? ` (it cannot run yet: ${hook.problem})` : ""}${unknownEvents.length > 0 && enabled ? ` (${neverFires(unknownEvents)})` : ""}\n`,
  );
}

function find(hooks: DiscoveredHook[], name: string): DiscoveredHook {
  const hook = hooks.find((h) => h.name === name);
  if (!hook) throw new CliError(`no hook named "${name}" (openclaw hooks list shows them)`);
  return hook;
}

import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import type { DiscoveredHook, HookSource } from "./discover-hooks.js";
import { EMITTED_HOOK_EVENTS } from "./emitted-events.js";
import { hookEnabled } from "./hook-runner.js";

/** Requirement groups OpenClaw's hook reports carry; this gateway gates hooks on none of them. */
interface HookRequirements {
  bins: string[];
  anyBins: string[];
  env: string[];
  config: string[];
  os: string[];
}

/** One hook as OpenClaw's `hooks.status` reports it (what `openclaw hooks list|info|check` print). */
export interface HookStatus {
  name: string;
  description: string;
  source: "openclaw-bundled" | "openclaw-managed" | "openclaw-workspace";
  filePath: string;
  baseDir: string;
  /** Empty when the folder has no handler the gateway can load (`blockedReason` says so). */
  handlerPath: string;
  hookKey: string;
  emoji?: string;
  events: string[];
  /** Events this gateway never emits (a typo, or another gateway's event). */
  unknownEvents: string[];
  always: false;
  enabledByConfig: boolean;
  requirementsSatisfied: true;
  /** Whether the hook runs on its events: enabled and able to run. */
  loadable: boolean;
  blockedReason?: string;
  managedByPlugin: false;
  requirements: HookRequirements;
  missing: HookRequirements;
  configChecks: [];
  install: [];
}

export interface HookStatusReport {
  /** The workspace whose `hooks/` folder is read: the default agent's. */
  workspaceDir: string;
  managedHooksDir: string;
  hooks: HookStatus[];
}

/** `extraDirs` hooks are operator-installed, which OpenClaw also reports as managed. */
const SOURCE_NAMES: Record<HookSource, HookStatus["source"]> = {
  bundled: "openclaw-bundled",
  managed: "openclaw-managed",
  extra: "openclaw-managed",
  workspace: "openclaw-workspace",
};

const noRequirements = (): HookRequirements => ({ bins: [], anyBins: [], env: [], config: [], os: [] });

/** Why an enabled-looking hook does not run, or undefined when it runs on its events. */
function blockedReason(hook: DiscoveredHook, config: OpenClawConfig): string | undefined {
  if (config.hooks?.internal?.enabled === false) return "internal hooks are off (hooks.internal.enabled: false)";
  if (!hookEnabled(config, hook.name)) {
    const off = `not enabled (hooks.internal.entries.${hook.name}.enabled: true turns it on)`;
    return hook.problem ? `${off}; cannot run: ${hook.problem}` : off;
  }
  return hook.problem;
}

/** The hooks the gateway discovered, each with whether it runs and why not, in OpenClaw's report shape. */
export function hookStatusReport(hooks: readonly DiscoveredHook[], config: OpenClawConfig, dirs: { workspaceDir: string; stateDir: string }): HookStatusReport {
  return {
    workspaceDir: dirs.workspaceDir,
    managedHooksDir: path.join(dirs.stateDir, "hooks"),
    hooks: hooks.map((hook) => {
      const blocked = blockedReason(hook, config);
      return {
        name: hook.name,
        description: hook.description,
        source: SOURCE_NAMES[hook.source],
        filePath: path.join(hook.dir, "HOOK.md"),
        baseDir: hook.dir,
        handlerPath: hook.handlerPath ?? "",
        hookKey: hook.name,
        ...(hook.emoji ? { emoji: hook.emoji } : {}),
        events: hook.events,
        unknownEvents: hook.events.filter((event) => !EMITTED_HOOK_EVENTS.has(event)),
        always: false,
        enabledByConfig: hookEnabled(config, hook.name),
        requirementsSatisfied: true,
        loadable: blocked === undefined,
        ...(blocked ? { blockedReason: blocked } : {}),
        managedByPlugin: false,
        requirements: noRequirements(),
        missing: noRequirements(),
        configChecks: [],
        install: [],
      };
    }),
  };
}

import fs from "node:fs";
import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { isMainSessionKey } from "../../sessions/keys/index.js";
import { findAgentEntry } from "../agent-config.js";
import { parseSandboxBind, type SandboxBind } from "../../config/sandbox-binds.js";

export type SandboxMode = "off" | "non-main" | "all";
export type SandboxBackendName = "bwrap" | "docker";
export type SandboxScope = "agent" | "session" | "shared";
export type WorkspaceAccess = "none" | "ro" | "rw";

/** `agents.defaults.sandbox` with the agent's own keys over it, defaults filled in. */
export interface SandboxSettings {
  mode: SandboxMode;
  /** Absent: bubblewrap on Linux when installed, else Docker. */
  backend?: SandboxBackendName;
  scope: SandboxScope;
  workspaceAccess: WorkspaceAccess;
  network: "none" | "host";
  dockerImage: string;
  /** `docker.binds`: the defaults', then the agent's (not under scope shared); checked when the config loaded. */
  binds: SandboxBind[];
}

export const DEFAULT_DOCKER_IMAGE = "debian:bookworm-slim";

export function resolveSandboxSettings(config: OpenClawConfig, agentId: string): SandboxSettings {
  const defaults = config.agents.defaults.sandbox ?? {};
  const own = findAgentEntry(config, agentId)?.sandbox ?? {};
  const pick = <K extends keyof typeof defaults>(key: K) => own[key] ?? defaults[key];
  const backend = pick("backend");
  const scope = pick("scope") ?? "session";
  // A shared sandbox serves every agent: only the defaults' binds apply to it.
  const specs = [...(defaults.docker?.binds ?? []), ...(scope === "shared" ? [] : (own.docker?.binds ?? []))];
  return {
    mode: pick("mode") ?? "off",
    ...(backend ? { backend } : {}),
    scope,
    workspaceAccess: pick("workspaceAccess") ?? "none",
    network: pick("network") ?? "none",
    dockerImage: own.docker?.image ?? defaults.docker?.image ?? DEFAULT_DOCKER_IMAGE,
    binds: specs.flatMap((spec) => {
      const bind = parseSandboxBind(spec);
      return "problem" in bind ? [] : [bind];
    }),
  };
}

/** Whether a session of the agent runs sandboxed, and why (for `openclaw sandbox explain`). */
export interface SandboxDecision {
  sandboxed: boolean;
  reason: string;
  settings: SandboxSettings;
}

export function decideSandbox(config: OpenClawConfig, agentId: string, sessionKey: string | undefined): SandboxDecision {
  const settings = resolveSandboxSettings(config, agentId);
  if (settings.mode === "off") return { sandboxed: false, reason: "sandbox.mode is off", settings };
  if (settings.mode === "all") return { sandboxed: true, reason: "sandbox.mode is all", settings };
  const main = sessionKey !== undefined && isMainSessionKey(sessionKey, config.session.mainKey);
  return main
    ? { sandboxed: false, reason: "sandbox.mode is non-main and this is the agent's main session", settings }
    : { sandboxed: true, reason: "sandbox.mode is non-main and this is not the agent's main session", settings };
}

/**
 * With `workspaceAccess: none`, sandboxed runs work in a copy of the agent's workspace, one per
 * scope: `<state>/sandboxes/<agent>` (scope agent), `<state>/sandboxes/<agent>/<session>` (scope
 * session) or `<state>/sandboxes/shared`. The copy is made once, when first used; the file tools
 * of sandboxed runs work in it too.
 */
export function sandboxWorkspaceDir(stateDir: string, settings: SandboxSettings, agentId: string, sessionKey: string | undefined): string {
  const safe = (text: string) => text.replace(/[^a-zA-Z0-9._-]+/g, "_").slice(0, 120);
  const base = path.join(stateDir, "sandboxes");
  if (settings.scope === "shared") return path.join(base, "shared");
  if (settings.scope === "agent" || !sessionKey) return path.join(base, safe(agentId), "agent");
  return path.join(base, safe(agentId), "sessions", safe(sessionKey));
}

/** Creates the sandbox copy of `workspaceDir` at `target` unless it exists; returns its real path. */
export function ensureSandboxWorkspace(workspaceDir: string, target: string): string {
  if (!fs.existsSync(target)) {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const staging = `${target}.tmp-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    if (fs.existsSync(workspaceDir)) fs.cpSync(workspaceDir, staging, { recursive: true, verbatimSymlinks: true, errorOnExist: false });
    else fs.mkdirSync(staging, { recursive: true });
    fs.renameSync(staging, target);
  }
  return fs.realpathSync(target);
}

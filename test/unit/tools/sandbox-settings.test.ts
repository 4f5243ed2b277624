import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { childSandboxProblem } from "../../../src/agents/sandbox/sandbox-explain.js";
import { decideSandbox, resolveSandboxSettings } from "../../../src/agents/sandbox/sandbox-settings.js";
import { prepareTurnSandbox } from "../../../src/agents/sandbox/turn-sandbox.js";
import { prepareSpawn } from "../../../src/agents/subagents/prepare-spawn.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import { makeTempDir, makeWorkspace } from "./helpers.js";

const configWith = (sandbox: Record<string, unknown> | undefined, agentSandbox?: Record<string, unknown>) =>
  applyDefaults({ agents: { defaults: { ...(sandbox ? { sandbox } : {}) }, ...(agentSandbox ? { entries: { main: { sandbox: agentSandbox } } } : {}) } } as never);

describe("sandbox settings", () => {
  it("defaults: off, session scope, no workspace access, no network; an agent's keys replace the defaults'", () => {
    expect(resolveSandboxSettings(configWith(undefined), "main")).toEqual({
      mode: "off",
      scope: "session",
      workspaceAccess: "none",
      network: "none",
      dockerImage: "debian:bookworm-slim",
      binds: [],
    });
    const merged = resolveSandboxSettings(configWith({ mode: "all", network: "host" }, { network: "none", backend: "docker" }), "main");
    expect(merged).toMatchObject({ mode: "all", network: "none", backend: "docker" });
  });

  it("mode non-main spares only the agent's main session", () => {
    const config = configWith({ mode: "non-main" });
    expect(decideSandbox(config, "main", "agent:main:main").sandboxed).toBe(false);
    expect(decideSandbox(config, "main", "agent:main:telegram:direct:42").sandboxed).toBe(true);
    expect(decideSandbox(configWith({ mode: "all" }), "main", "agent:main:main").sandboxed).toBe(true);
  });

  it("workspaceAccess none works in a per-scope copy; ro withholds the writing file tools", () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "AGENTS.md"), "rules");
    const stateDir = makeTempDir();
    const none = prepareTurnSandbox({
      config: configWith({ mode: "all", backend: "bwrap" }),
      agentId: "main",
      sessionKey: "agent:main:x",
      workspaceDir: workspace,
      stateDir,
      env: process.env,
    });
    expect(none.workspaceDir.startsWith(fs.realpathSync(path.join(stateDir, "sandboxes")))).toBe(true);
    expect(fs.readFileSync(path.join(none.workspaceDir, "AGENTS.md"), "utf8")).toBe("rules");
    expect(none.sandbox?.writable).toBe(true);
    const other = prepareTurnSandbox({
      config: configWith({ mode: "all", backend: "bwrap" }),
      agentId: "main",
      sessionKey: "agent:main:y",
      workspaceDir: workspace,
      stateDir,
      env: process.env,
    });
    expect(other.workspaceDir).not.toBe(none.workspaceDir);
    const ro = prepareTurnSandbox({
      config: configWith({ mode: "all", workspaceAccess: "ro" }),
      agentId: "main",
      sessionKey: "agent:main:x",
      workspaceDir: workspace,
      stateDir,
      env: process.env,
    });
    expect(ro.workspaceDir).toBe(workspace);
    expect(ro.withheld?.tools).toEqual(["write", "edit", "apply_patch", "image_generate", "tts", "browser"]);
  });

  it("sessions_spawn sandbox require: refused unless the child would run sandboxed with its backend installed", () => {
    const caller = { agentId: "main", sessionKey: "agent:main:main" } as never;
    const deps = (config: ReturnType<typeof configWith>, env: NodeJS.ProcessEnv = process.env) => ({ config, stateDir: makeTempDir(), env, now: Date.now(), activeChildren: 0 });
    const off = prepareSpawn(caller, { task: "t", sandbox: "require" } as never, deps(configWith(undefined)));
    expect(off).toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    expect(JSON.stringify(off)).toContain("runs without a sandbox (sandbox.mode is off)");
    const missing = prepareSpawn(caller, { task: "t", sandbox: "require" } as never, deps(configWith({ mode: "non-main", backend: "bwrap" }), { PATH: makeTempDir() }));
    expect((missing as { message: string }).message).toContain('the sandbox backend "bwrap" is not installed');
    const ok = prepareSpawn(caller, { task: "t", sandbox: "require" } as never, deps(configWith({ mode: "non-main", backend: "bwrap" })));
    expect(ok).toHaveProperty("record");
    expect(childSandboxProblem(configWith({ mode: "all", backend: "bwrap" }), "main", process.env)).toBeUndefined();
  });
});

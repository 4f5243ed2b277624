import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../src/config/index.js";
import { ensureWorkspace, resolveWorkspaceDir } from "../../../src/agents/context/workspace.js";
import { DEFAULT_BOOTSTRAP_FILES } from "../../../src/agents/context/default-bootstrap-files.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

const ALL_DEFAULTS = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md"];

describe("resolveWorkspaceDir", () => {
  const state = "/srv/state";
  const env = { HOME: "/home/u" };

  it("uses <state>/workspace for the default agent and <state>/workspace-<id> for the others", () => {
    expect(resolveWorkspaceDir(defaultConfig(), "main", state, env)).toBe("/srv/state/workspace");
    expect(resolveWorkspaceDir(defaultConfig(), "Helper", state, env)).toBe("/srv/state/workspace-helper");
  });

  it("prefers the agent's own workspace, then agents.defaults.workspace, then OPENCLAW_WORKSPACE_DIR", () => {
    const withEnv = { ...env, OPENCLAW_WORKSPACE_DIR: "~/env-ws" };
    const config = { agents: { defaults: { workspace: "~/shared-ws" }, entries: { main: { workspace: "~/main-ws" }, ops: {} } } };
    expect(resolveWorkspaceDir(config, "main", state, withEnv)).toBe("/home/u/main-ws");
    const noOwn = { agents: { defaults: { workspace: "~/shared-ws" } } };
    expect(resolveWorkspaceDir(noOwn, "main", state, withEnv)).toBe("/home/u/shared-ws");
    expect(resolveWorkspaceDir(defaultConfig(), "main", state, withEnv)).toBe("/home/u/env-ws");
  });

  it("gives OPENCLAW_WORKSPACE_DIR to the default agent only", () => {
    const withEnv = { ...env, OPENCLAW_WORKSPACE_DIR: "/env-ws" };
    const config = { agents: { entries: { main: { default: true }, ops: {} } } };
    expect(resolveWorkspaceDir(config, "main", state, withEnv)).toBe("/env-ws");
    expect(resolveWorkspaceDir(config, "ops", state, withEnv)).toBe("/srv/state/workspace-ops");
  });

  it("does not put a non-default agent into agents.defaults.workspace", () => {
    const config = { agents: { defaults: { workspace: "/ws" }, entries: { main: { default: true }, ops: {} } } };
    expect(resolveWorkspaceDir(config, "main", state, env)).toBe("/ws");
    expect(resolveWorkspaceDir(config, "ops", state, env)).toBe("/srv/state/workspace-ops");
  });

  it("reads the legacy agents.list spelling and its default flag", () => {
    const config = { agents: { list: [{ id: "a" }, { id: "b", default: true, workspace: "/b-ws" }] } };
    expect(resolveWorkspaceDir(config, "b", state, env)).toBe("/b-ws");
    expect(resolveWorkspaceDir(config, "a", state, env)).toBe("/srv/state/workspace-a");
  });

  it("makes relative paths absolute", () => {
    const config = { agents: { defaults: { workspace: "rel/ws" } } };
    expect(resolveWorkspaceDir(config, "main", state, env)).toBe(path.resolve("rel/ws"));
  });
});

describe("ensureWorkspace", () => {
  it("creates the folder (0700), every default file and memory/", async () => {
    const dir = path.join(makeTempDir(), "ws");
    const result = await ensureWorkspace(dir);
    expect(result.brandNew).toBe(true);
    expect(result.created).toEqual(ALL_DEFAULTS);
    for (const name of ALL_DEFAULTS) expect(fs.readFileSync(path.join(dir, name), "utf8").length).toBeGreaterThan(0);
    expect(fs.statSync(path.join(dir, "memory")).isDirectory()).toBe(true);
    if (process.platform !== "win32") expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("never overwrites a file the user wrote, and creates only what is missing", async () => {
    const dir = makeTempDir();
    const mine = "# My own rules\n\nDo it my way. ünïcödé ✓\n";
    writeFile(dir, "AGENTS.md", mine);
    writeFile(dir, "SOUL.md", "");
    const before = fs.readFileSync(path.join(dir, "AGENTS.md"));
    const result = await ensureWorkspace(dir);
    expect(fs.readFileSync(path.join(dir, "AGENTS.md")).equals(before)).toBe(true);
    expect(fs.readFileSync(path.join(dir, "SOUL.md"), "utf8")).toBe("");
    expect(result.created).not.toContain("AGENTS.md");
    expect(result.created).not.toContain("SOUL.md");
    expect(result.created).toContain("MEMORY.md");
    const again = await ensureWorkspace(dir);
    expect(again.created).toEqual([]);
    expect(fs.readFileSync(path.join(dir, "AGENTS.md")).equals(before)).toBe(true);
  });

  it("seeds BOOTSTRAP.md only into a brand-new workspace, so deleting it sticks", async () => {
    const dir = makeTempDir();
    await ensureWorkspace(dir);
    fs.rmSync(path.join(dir, "BOOTSTRAP.md"));
    const again = await ensureWorkspace(dir);
    expect(again.brandNew).toBe(false);
    expect(fs.existsSync(path.join(dir, "BOOTSTRAP.md"))).toBe(false);
    expect(again.created).toEqual([]);
  });

  it("does not add MEMORY.md next to an existing lowercase memory.md", async () => {
    const dir = makeTempDir();
    writeFile(dir, "memory.md", "old notes\n");
    const result = await ensureWorkspace(dir);
    expect(result.created).not.toContain("MEMORY.md");
    expect(fs.readdirSync(dir).filter((name) => name.toLowerCase() === "memory.md")).toEqual(["memory.md"]);
  });

  it("keeps all default files together under 6 KB (a plain 'hi' must stay under 16 KB on the wire)", () => {
    const bytes = DEFAULT_BOOTSTRAP_FILES.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);
    expect(bytes).toBeLessThan(6 * 1024);
  });
});

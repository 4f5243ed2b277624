import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import { resolveBundledHooksDir } from "../../../src/hooks/internal/bundled-hooks-dir.js";
import { discoverHooks } from "../../../src/hooks/internal/discover-hooks.js";
import { InternalHookRunner } from "../../../src/hooks/internal/hook-runner.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-hooks-"));
}

function writeHook(root: string, name: string, events: string[], handler: string | undefined, file = "handler.js"): void {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: ${name}\ndescription: test hook ${name}\nmetadata:\n  openclaw:\n    events: ${JSON.stringify(events)}\n---\n`);
  if (handler !== undefined) fs.writeFileSync(path.join(dir, file), handler);
}

function runner(stateDir: string, workspace: string, entries: Record<string, { enabled: boolean }>, timeoutMs = 2_000) {
  const warnings: { hook?: string; err?: string }[] = [];
  const agentTurns: { hook: string; message: string; agentId?: string }[] = [];
  const logger = { warn: (obj: { hook?: string; err?: string }) => warnings.push(obj), debug() {}, info() {}, error() {} } as never;
  const config = applyDefaults({ hooks: { internal: { entries, timeoutMs } } } as never);
  const hooks = new InternalHookRunner({
    config: () => config,
    stateDir,
    bundledDir: resolveBundledHooksDir(),
    logger,
    workspaceDirOf: () => workspace,
    defaultAgentId: () => "main",
    agentTurns: (hook, request) => agentTurns.push({ hook, ...request }),
  });
  return { hooks, warnings, agentTurns };
}

describe("internal hooks", () => {
  it("discovers bundled, managed and workspace hooks; workspace hooks never replace a name; unusable ones say why", () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    writeHook(path.join(stateDir, "hooks"), "command-logger", ["command"], "export default async () => {};");
    writeHook(path.join(workspace, "hooks"), "session-memory", ["command:new"], "export default async () => {};");
    writeHook(path.join(workspace, "hooks"), "mine", ["gateway:startup"], "export default async () => {};");
    writeHook(path.join(stateDir, "hooks"), "typed", ["command"], "export default async () => {};", "handler.ts");
    writeHook(path.join(stateDir, "hooks"), "silent", [], "export default async () => {};");
    const found = new Map(discoverHooks({ bundledDir: resolveBundledHooksDir(), stateDir, extraDirs: [], workspaceDir: workspace }).map((h) => [h.name, h]));
    expect(found.get("session-memory")).toMatchObject({ source: "bundled", events: ["command:new", "command:reset", "session:auto-reset"] });
    expect(found.get("command-logger")).toMatchObject({ source: "managed" });
    expect(found.get("mine")).toMatchObject({ source: "workspace" });
    expect(found.get("typed")).toMatchObject({ problem: "handler.ts needs compiling: the gateway loads handler.js (or index.js)" });
    expect(found.get("silent")!.problem).toMatch(/lists no events/);
  });

  it("a handler that throws, hangs or calls process.exit is logged and stopped; the others still run and the process goes on", async () => {
    const stateDir = tempDir();
    const root = path.join(stateDir, "hooks");
    const marker = path.join(stateDir, "ran.txt");
    writeHook(root, "thrower", ["command:new"], "export default async () => { throw new Error('boom'); };");
    writeHook(root, "hanger", ["command:new"], "export default () => new Promise(() => { setInterval(() => {}, 1000); });");
    writeHook(root, "exiter", ["command:new"], "export default async () => { process.exit(3); };");
    writeHook(
      root,
      "good",
      ["command"],
      `import fs from "node:fs"; export default async (event) => { fs.writeFileSync(${JSON.stringify(marker)}, event.type + ":" + event.action); };`,
    );
    writeHook(root, "off", ["command:new"], `import fs from "node:fs"; export default async () => { fs.writeFileSync(${JSON.stringify(`${marker}.off`)}, "x"); };`);
    const { hooks, warnings } = runner(stateDir, tempDir(), { thrower: { enabled: true }, hanger: { enabled: true }, exiter: { enabled: true }, good: { enabled: true } }, 3_000);
    await hooks.emitAndWait({ type: "command", action: "new", sessionKey: "agent:main:main", context: {} });
    expect(fs.readFileSync(marker, "utf8")).toBe("command:new");
    expect(fs.existsSync(`${marker}.off`)).toBe(false);
    const byHook = Object.fromEntries(warnings.map((w) => [w.hook, w.err]));
    expect(byHook.thrower).toMatch(/boom/);
    expect(byHook.hanger).toMatch(/did not finish within 3000 ms \(hooks.internal.timeoutMs\)/);
    expect(byHook.exiter).toMatch(/ended its thread \(exit code 3\)/);
    expect(process.exitCode ?? 0).toBe(0);
  });

  it("bundled session-memory saves the last messages to memory/YYYY-MM-DD-HHMM.md; command-logger appends a line", async () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    const { hooks, warnings } = runner(stateDir, workspace, { "session-memory": { enabled: true }, "command-logger": { enabled: true } });
    const messages = Array.from({ length: 15 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", text: `line ${i}` }));
    await hooks.emitAndWait({ type: "command", action: "reset", sessionKey: "agent:main:main", context: { workspaceDir: workspace, messages, commandSource: "chat.send" } });
    expect(warnings).toEqual([]);
    const files = fs.readdirSync(path.join(workspace, "memory"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}\.md$/);
    const text = fs.readFileSync(path.join(workspace, "memory", files[0]!), "utf8");
    expect(text).toContain("**user:** line 0");
    expect(text).toContain("**assistant:** line 13");
    const log = fs
      .readFileSync(path.join(stateDir, "logs", "commands.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log).toEqual([expect.objectContaining({ action: "reset", sessionKey: "agent:main:main", source: "chat.send" })]);
  });

  it("bundled boot-md asks for one agent turn per agent whose workspace has a non-empty BOOT.md", async () => {
    const stateDir = tempDir();
    const [withBoot, emptyBoot, noBoot] = [tempDir(), tempDir(), tempDir()];
    fs.writeFileSync(path.join(withBoot, "BOOT.md"), "# Boot\n- Check the disk\n");
    fs.writeFileSync(path.join(emptyBoot, "BOOT.md"), "  \n");
    const { hooks, warnings, agentTurns } = runner(stateDir, withBoot, { "boot-md": { enabled: true } });
    const agents = [
      { agentId: "main", workspaceDir: withBoot },
      { agentId: "empty", workspaceDir: emptyBoot },
      { agentId: "none", workspaceDir: noBoot },
    ];
    await hooks.emitAndWait({ type: "gateway", action: "startup", context: { port: 1, agents } });
    expect(warnings).toEqual([]);
    expect(agentTurns).toHaveLength(1);
    expect(agentTurns[0]).toMatchObject({ hook: "boot-md", agentId: "main" });
    expect(agentTurns[0]!.message).toContain("# Boot\n- Check the disk");
    expect(agentTurns[0]!.message).toMatch(/reply with only NO_REPLY/);
  });

  it("a hook that is not enabled asks for nothing", async () => {
    const workspace = tempDir();
    fs.writeFileSync(path.join(workspace, "BOOT.md"), "- Check the disk\n");
    const { hooks, agentTurns } = runner(tempDir(), workspace, {});
    await hooks.emitAndWait({ type: "gateway", action: "startup", context: { agents: [{ agentId: "main", workspaceDir: workspace }] } });
    expect(agentTurns).toEqual([]);
  });
});

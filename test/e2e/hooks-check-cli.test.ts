import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw hooks check`: read locally, as `hooks list`; a ready hook is counted ready, a hook
 * with no handler and the bundled hooks nobody enabled are listed with why they would not run.
 */

function hook(stateDir: string, name: string, opts: { emoji?: string; handler: boolean }): void {
  const dir = path.join(stateDir, "hooks", name);
  fs.mkdirSync(dir, { recursive: true });
  const openclaw = JSON.stringify({ events: ["command:new"], ...(opts.emoji ? { emoji: opts.emoji } : {}) });
  fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: ${name}\ndescription: ${name} hook\nmetadata: { "openclaw": ${openclaw} }\n---\n# ${name}\n`);
  if (opts.handler) fs.writeFileSync(path.join(dir, "handler.js"), "export default async () => {};\n");
}

function stateWithHooks(): Record<string, string> {
  const stateDir = makeTempDir("openclaw-hooks-check-");
  hook(stateDir, "greeter", { emoji: "👋", handler: true });
  hook(stateDir, "broken", { handler: false });
  hook(stateDir, "muted", { handler: true });
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({ hooks: { internal: { entries: { greeter: { enabled: true }, broken: { enabled: true }, muted: { enabled: false } } } } }),
  );
  return { OPENCLAW_STATE_DIR: stateDir };
}

/** The bundled hooks, all off until enabled: their names, from `hooks list`. */
async function bundledNames(env: Record<string, string>): Promise<string[]> {
  const list = JSON.parse((await runCli(["hooks", "list", "--json"], env)).output);
  return list.hooks.filter((h: { source: string }) => h.source === "bundled").map((h: { name: string }) => h.name);
}

describe("openclaw hooks check", () => {
  it("--json counts the ready hooks and gives each other one's reason", async () => {
    const env = stateWithHooks();
    const bundled = await bundledNames(env);
    const { code, output } = await runCli(["hooks", "check", "--json"], env);
    expect(code, output).toBe(0);
    const report = JSON.parse(output);
    expect(report).toMatchObject({ total: bundled.length + 3, eligible: 1, notEligible: bundled.length + 2 });
    expect(report.hooks.eligible).toEqual(["greeter"]);
    const reasons = Object.fromEntries(report.hooks.notEligible.map((h: { name: string; blockedReason: string }) => [h.name, h.blockedReason]));
    expect(reasons.broken).toBe("cannot run: no handler.js (or index.js) beside HOOK.md");
    expect(reasons.muted).toBe("disabled in config");
    for (const name of bundled) expect(reasons[name]).toBe(`disabled by default (openclaw hooks enable ${name})`);
  });

  it("prints the totals and the hooks not ready with their reasons; exit 0 though some are not ready", async () => {
    const env = stateWithHooks();
    const bundled = await bundledNames(env);
    const { code, output } = await runCli(["hooks", "check"], env);
    expect(code, output).toBe(0);
    expect(output).toContain(["Hooks Status", "", `Total hooks: ${bundled.length + 3}`, "Ready: 1", `Not ready: ${bundled.length + 2}`, "", "Hooks not ready:", ""].join("\n"));
    expect(output).toContain("\n  broken - cannot run: no handler.js (or index.js) beside HOOK.md\n");
    expect(output).toContain("\n  muted - disabled in config\n");
    expect(output).not.toContain("greeter");
  });

  it("hooks.internal.enabled: false makes every hook not ready, saying so", async () => {
    const env = stateWithHooks();
    fs.writeFileSync(path.join(env.OPENCLAW_STATE_DIR!, "openclaw.json"), JSON.stringify({ hooks: { internal: { enabled: false, entries: { greeter: { enabled: true } } } } }));
    const report = JSON.parse((await runCli(["hooks", "check", "--json"], env)).output);
    expect(report.eligible).toBe(0);
    expect(report.hooks.notEligible.find((h: { name: string }) => h.name === "greeter")).toEqual({ name: "greeter", blockedReason: "hooks.internal.enabled is false" });
    expect(report.hooks.notEligible.find((h: { name: string }) => h.name === "broken").blockedReason).toBe(
      "hooks.internal.enabled is false; cannot run: no handler.js (or index.js) beside HOOK.md",
    );
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, CLI, makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw config schema` prints the config's JSON schema; `openclaw config patch` merges a
 * JSON5 patch from a file or stdin into the config file in one validated write, and writes
 * nothing when the patch or its result is invalid, or with --dry-run.
 */

const START = { gateway: { port: 19001, trustedProxies: ["10.0.0.1", "10.0.0.2"] }, logging: { level: "info" } };

function state(): { env: Record<string, string>; file: string } {
  const stateDir = makeTempDir("openclaw-config-patch-");
  const file = path.join(stateDir, "openclaw.json");
  fs.writeFileSync(file, `${JSON.stringify(START, null, 2)}\n`);
  return { env: { OPENCLAW_STATE_DIR: stateDir }, file };
}

function patchFile(text: string): string {
  const file = path.join(makeTempDir("openclaw-patch-file-"), "patch.json5");
  fs.writeFileSync(file, text);
  return file;
}

/** The CLI with `input` on its standard input. */
function runWithStdin(args: string[], env: Record<string, string>, input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

describe("openclaw config schema", () => {
  it("prints the JSON schema, with or without --json", async () => {
    const env = { OPENCLAW_STATE_DIR: makeTempDir("openclaw-config-schema-") };
    const plain = await runCli(["config", "schema"], env);
    expect(plain.code).toBe(0);
    const schema = JSON.parse(plain.output);
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.type).toBe("object");
    expect(schema.properties.gateway.properties.port).toMatchObject({ type: "integer" });
    expect(JSON.parse((await runCli(["config", "schema", "--json"], env)).output)).toEqual(schema);
  });
});

describe("openclaw config patch", () => {
  it("--file merges objects, replaces lists and scalars, and null deletes", async () => {
    const { env, file } = state();
    const patch = patchFile("// a comment\n{ gateway: { port: 19002, trustedProxies: ['10.0.0.9'] }, logging: { level: null }, agents: { defaults: { timeoutSeconds: 120 } } }");
    const { code, output } = await runCli(["config", "patch", "--file", patch], env);
    expect(code, output).toBe(0);
    expect(output).toContain(
      `Patched ${file}: changed 5 path(s): agents.defaults.timeoutSeconds, gateway.port, gateway.trustedProxies[0], gateway.trustedProxies[1], logging.level\n`,
    );
    // The trusted proxies apply live; the port only after a restart.
    expect(output).toContain("A running gateway applies gateway.port only after a restart (openclaw gateway restart)\n");
    expect(read(file)).toEqual({ gateway: { port: 19002, trustedProxies: ["10.0.0.9"] }, logging: {}, agents: { defaults: { timeoutSeconds: 120 } } });
  });

  it("--stdin with --json answers what changed", async () => {
    const { env, file } = state();
    const res = await runWithStdin(["config", "patch", "--stdin", "--json"], env, "{ gateway: { port: null }, logging: { level: 'debug' } }");
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      ok: true,
      dryRun: false,
      file,
      changedPaths: ["gateway.port", "logging.level"],
      restartRequiredPaths: ["gateway.port"],
      warnings: [],
    });
    expect(read(file)).toEqual({ gateway: { trustedProxies: ["10.0.0.1", "10.0.0.2"] }, logging: { level: "debug" } });
  });

  it("--replace-path replaces that object instead of merging into it", async () => {
    const { env, file } = state();
    const patch = patchFile("{ gateway: { port: 19003 }, logging: { file: '/tmp/x.log' } }");
    const { code, output } = await runCli(["config", "patch", "--file", patch, "--replace-path", "logging"], env);
    expect(code, output).toBe(0);
    expect(read(file)).toEqual({ gateway: { port: 19003, trustedProxies: ["10.0.0.1", "10.0.0.2"] }, logging: { file: "/tmp/x.log" } });
    const unmatched = await runCli(["config", "patch", "--file", patch, "--replace-path", "gateway.auth"], env);
    expect(unmatched.code).toBe(1);
    expect(unmatched.output).toContain("openclaw: --replace-path gateway.auth names nothing in the patch");
  });

  it("--dry-run checks the patch and writes nothing", async () => {
    const { env, file } = state();
    const before = fs.readFileSync(file, "utf8");
    const res = await runWithStdin(["config", "patch", "--stdin", "--dry-run"], env, "{ gateway: { port: 19004 } }");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Dry run: the patch is valid and would change 1 path(s): gateway.port (${file} not written)\n`);
    const json = await runWithStdin(["config", "patch", "--stdin", "--dry-run", "--json"], env, "{ gateway: { port: 19004 } }");
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, dryRun: true, changedPaths: ["gateway.port"] });
    const invalid = await runWithStdin(["config", "patch", "--stdin", "--dry-run"], env, "{ gateway: { port: 'high' } }");
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("openclaw: dry run failed: ");
    expect(invalid.stderr).toContain("gateway.port");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("a patch that is not JSON5, not an object, or whose result is invalid writes nothing (exit 1)", async () => {
    const { env, file } = state();
    const before = fs.readFileSync(file, "utf8");
    const bad = await runWithStdin(["config", "patch", "--stdin"], env, "{ gateway: ");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^openclaw: --stdin is not valid JSON5: /);
    const list = await runCli(["config", "patch", "--file", patchFile("[1, 2]")], env);
    expect(list.code).toBe(1);
    expect(list.output).toContain("must hold a JSON5 object");
    const invalid = await runCli(["config", "patch", "--file", patchFile("{ gateway: { port: 70000 } }")], env);
    expect(invalid.code).toBe(1);
    expect(invalid.output).toContain("openclaw: not saved: ");
    expect(invalid.output).toContain("gateway.port");
    const invalidJson = await runCli(["config", "patch", "--file", patchFile("{ gateway: { port: 70000 } }"), "--json"], env);
    expect(JSON.parse(invalidJson.output)).toMatchObject({ ok: false, error: { type: "cli_error", message: expect.stringContaining("not saved: ") } });
    const missing = await runCli(["config", "patch", "--file", "/nonexistent/patch.json5"], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("openclaw: cannot read --file /nonexistent/patch.json5");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("a config file that does not parse is not patched (the patch would become the whole file) and stays byte for byte", async () => {
    const { env, file } = state();
    const broken = `${fs.readFileSync(file, "utf8").trimEnd().slice(0, -1)}\n`;
    fs.writeFileSync(file, broken);
    const res = await runWithStdin(["config", "patch", "--stdin"], env, "{ logging: { level: 'warn' } }");
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^openclaw: not saved: config file .* does not parse, so it cannot be patched: /);
    expect(fs.readFileSync(file, "utf8")).toBe(broken);
  });

  it("needs exactly one of --file and --stdin", async () => {
    const { env } = state();
    for (const args of [[], ["--stdin", "--file", "x.json5"]]) {
      const res = await runCli(["config", "patch", ...args], env);
      expect(res.code).toBe(1);
      expect(res.output).toBe("openclaw: give the patch with one of --file <path> or --stdin\n");
    }
  });
});

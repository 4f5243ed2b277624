import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyConfigEnvVars, loadStateDotEnv } from "../../../src/config/env-sources.js";
import { importLoginShellEnv } from "../../../src/config/login-shell-env.js";
import { redactConfig, REDACTED } from "../../../src/config/redact.js";
import { validateConfig } from "../../../src/config/validate.js";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-env-"));

describe("environment sources", () => {
  it("<state>/.env fills only what the environment lacks; comments, quotes and export lines as dotenv reads them", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, ".env"), '# keys\nOPENAI_API_KEY=sk-from-file\nexport GREETING="hello world"\nHOME=/nowhere\n');
    const env: NodeJS.ProcessEnv = { HOME: "/home/me" };
    expect(loadStateDotEnv(dir, env).applied.sort()).toEqual(["GREETING", "OPENAI_API_KEY"]);
    expect(env).toEqual({ HOME: "/home/me", OPENAI_API_KEY: "sk-from-file", GREETING: "hello world" });
    expect(loadStateDotEnv(tempDir(), env)).toEqual({ applied: [] });
    const notAFile = tempDir();
    fs.mkdirSync(path.join(notAFile, ".env"));
    expect(loadStateDotEnv(notAFile, {}).warning).toMatch(/\.env is not a regular file; its variables were not read/);
  });

  it("env.vars fill what is unset and are what ${VAR} reads when the environment has no value", () => {
    const env: NodeJS.ProcessEnv = { KEEP: "mine" };
    expect(applyConfigEnvVars({ KEEP: "theirs", NEW_ONE: "x" }, env)).toEqual(["NEW_ONE"]);
    expect(env).toEqual({ KEEP: "mine", NEW_ONE: "x" });
    const raw = {
      env: { vars: { MODEL_KEY: "sk-vars", KEEP: "theirs" } },
      models: { providers: { p: { baseUrl: "http://x/v1", apiKey: "${MODEL_KEY}", api: "openai-completions", headers: { "x-keep": "${KEEP}" } } } },
    };
    const { config } = validateConfig(raw, { KEEP: "mine" });
    expect(config.models?.providers?.p?.apiKey).toBe("sk-vars");
    expect((config.models!.providers!.p as { headers?: Record<string, string> }).headers?.["x-keep"]).toBe("mine");
    expect(() => validateConfig({ env: { vars: { "BAD-NAME": "x" } } }, {})).toThrow('env.vars.BAD-NAME: "BAD-NAME" is not a variable name');
  });

  it("every value env.vars sets is hidden when the config is shown; ${VAR} references stay readable", () => {
    expect(redactConfig({ env: { vars: { DATABASE_URL: "postgres://u:pw@h/db", REF: "${OTHER}" } } })).toEqual({ env: { vars: { DATABASE_URL: REDACTED, REF: "${OTHER}" } } });
  });

  it("the login shell's variables fill what is unset; a shell that fails is a warning", () => {
    const dir = tempDir();
    const shell = path.join(dir, "fake-shell");
    fs.writeFileSync(shell, "#!/bin/sh\nprintf 'FROM_PROFILE=1\\0PATH=/profile/bin\\0MULTI=a\\nb\\0'\n", { mode: 0o755 });
    const env: NodeJS.ProcessEnv = { SHELL: shell, PATH: "/usr/bin" };
    expect(importLoginShellEnv(env)).toEqual({ applied: ["FROM_PROFILE", "MULTI"] });
    expect(env).toMatchObject({ FROM_PROFILE: "1", PATH: "/usr/bin", MULTI: "a\nb" });
    const failing = path.join(dir, "failing-shell");
    fs.writeFileSync(failing, "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    expect(importLoginShellEnv({ SHELL: failing }).warning).toMatch(/env\.shellEnv: the login shell .*failing-shell did not list its environment \(exit 3\)/);
  });
});

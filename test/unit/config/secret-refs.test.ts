import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSecretRefs } from "../../../src/config/secrets/resolve-secret-refs.js";
import { validateConfig } from "../../../src/config/validate.js";
import { answeredExecReads, prefetchExecReads } from "../../../src/config/secrets/exec-reads.js";
import { readExecSecretsAsync } from "../../../src/infra/secrets/exec-secrets.js";
import { TraceRedactor } from "../../../src/traces/redaction.js";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "secret-refs-"));

function privateFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** A resolver script (node, absolute shebang) whose body is `code`; `request` is the parsed stdin. */
function resolver(dir: string, code: string, mode = 0o700): string {
  const file = path.join(dir, `resolver-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, `#!${process.execPath}\nlet input = "";\nfor await (const c of process.stdin) input += c;\nconst request = JSON.parse(input);\n${code}\n`, { mode });
  fs.chmodSync(file, mode);
  return file;
}

const apiKeyRef = (ref: Record<string, unknown>) => ({ models: { providers: { p: { apiKey: ref } } } });
const apiKeyOf = (config: Record<string, unknown>) => (config as { models: { providers: { p: { apiKey: unknown } } } }).models.providers.p.apiKey;
const messages = (result: ReturnType<typeof resolveSecretRefs>) => result.issues.map((issue) => `${issue.path}: ${issue.message}`);

describe("resolveSecretRefs", () => {
  it("a config without refs comes back as it was", () => {
    const config = { models: { providers: { p: { apiKey: "sk-plain" } } } };
    const result = resolveSecretRefs(config, {});
    expect(result.config).toBe(config);
    expect(result.resolvedPaths).toEqual([]);
  });

  it("env refs read the environment; an allowlist and an empty value are refused", () => {
    expect(resolveSecretRefs(apiKeyRef({ source: "env", id: "KEY_A" }), { KEY_A: "sk-a" })).toMatchObject({ resolvedPaths: ["models.providers.p.apiKey"] });
    const allow = { secrets: { providers: { default: { source: "env", allowlist: ["KEY_B"] } } } };
    expect(messages(resolveSecretRefs({ ...allow, ...apiKeyRef({ source: "env", provider: "default", id: "KEY_A" }) }, { KEY_A: "sk-a" }))).toEqual([
      "models.providers.p.apiKey: cannot read SecretRef env:default:KEY_A: KEY_A is not on the provider's allowlist",
    ]);
    expect(messages(resolveSecretRefs(apiKeyRef({ source: "env", id: "KEY_A" }), { KEY_A: "" }))).toEqual([
      "models.providers.p.apiKey: cannot read SecretRef env:default:KEY_A: the value is empty",
    ]);
    expect(messages(resolveSecretRefs(apiKeyRef({ source: "env", id: "lower_case" }), {}))[0]).toContain("an env SecretRef's id is an environment variable name");
  });

  it("the redaction placeholder is no secret", () => {
    expect(messages(resolveSecretRefs(apiKeyRef({ source: "env", id: "KEY_A" }), { KEY_A: "__OPENCLAW_REDACTED__" }))[0]).toContain(
      "the value is the redaction placeholder __OPENCLAW_REDACTED__, not a secret",
    );
  });

  it("file refs: JSON pointers with ~1 and ~0, singleValue, and what is refused about the file", () => {
    const dir = tmp();
    const json = privateFile(dir, "s.json", JSON.stringify({ "a/b": { "c~d": "sk-pointer" }, n: 5 }));
    const single = privateFile(dir, "single", "sk-single\n");
    const secrets = { providers: { j: { source: "file", path: json }, s: { source: "file", path: single, mode: "singleValue" } } };
    const ok = resolveSecretRefs({ secrets, ...apiKeyRef({ source: "file", provider: "j", id: "/a~1b/c~0d" }) }, {});
    expect(apiKeyOf(ok.config)).toBe("sk-pointer");
    const one = resolveSecretRefs({ secrets, ...apiKeyRef({ source: "file", provider: "s", id: "value" }) }, {});
    expect(apiKeyOf(one.config)).toBe("sk-single");
    const bad = (id: string, provider = "j") => messages(resolveSecretRefs({ secrets, ...apiKeyRef({ source: "file", provider, id }) }, {}))[0];
    expect(bad("/missing")).toContain(`${json} has nothing at /missing`);
    expect(bad("/n")).toContain("the value is number, not a string");
    expect(bad("/x", "s")).toContain('a singleValue provider\'s only id is "value"');

    fs.linkSync(json, path.join(dir, "second-link"));
    expect(bad("/n")).toContain(`${json} has 2 hard links`);
    const link = path.join(dir, "link.json");
    fs.symlinkSync(single, link);
    const viaLink = { providers: { l: { source: "file", path: link, mode: "singleValue" } } };
    expect(messages(resolveSecretRefs({ secrets: viaLink, ...apiKeyRef({ source: "file", provider: "l", id: "value" }) }, {}))[0]).toContain(`${link} is a symlink`);
    const big = privateFile(dir, "big", "x".repeat(100));
    const capped = { providers: { b: { source: "file", path: big, mode: "singleValue", maxBytes: 10 } } };
    expect(messages(resolveSecretRefs({ secrets: capped, ...apiKeyRef({ source: "file", provider: "b", id: "value" }) }, {}))[0]).toContain("is larger than maxBytes (10 bytes)");
    const notJson = privateFile(dir, "broken.json", "{ sk-broken");
    const broken = { providers: { x: { source: "file", path: notJson } } };
    const brokenMessage = messages(resolveSecretRefs({ secrets: broken, ...apiKeyRef({ source: "file", provider: "x", id: "/a" }) }, {}))[0];
    expect(brokenMessage).toContain(`${notJson} is not valid JSON`);
    expect(brokenMessage).not.toContain("sk-broken");
  });

  it("exec refs: one run per provider for all its ids, only env and passEnv given to it", () => {
    const dir = tmp();
    const log = path.join(dir, "runs");
    const command = resolver(
      dir,
      `const fs = await import("node:fs"); fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ ids: request.ids, provider: request.provider, env: process.env }) + "\\n");
process.stdout.write(JSON.stringify({ protocolVersion: 1, values: Object.fromEntries(request.ids.map((id) => [id, "v-" + id])) }));`,
    );
    const config = {
      secrets: { providers: { vault: { source: "exec", command, env: { GIVEN: "1" }, passEnv: ["PASSED"] } } },
      models: { providers: { p: { apiKey: { source: "exec", provider: "vault", id: "a" } }, q: { apiKey: { source: "exec", provider: "vault", id: "b" } } } },
      channels: { telegram: { botToken: { source: "exec", provider: "vault", id: "a" } } },
    };
    const result = resolveSecretRefs(config, { PASSED: "yes", OTHER: "no" });
    expect(result.issues).toEqual([]);
    expect(result.resolvedPaths.sort()).toEqual(["channels.telegram.botToken", "models.providers.p.apiKey", "models.providers.q.apiKey"]);
    const runs = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(runs).toHaveLength(1);
    expect(runs[0].ids).toEqual(["a", "b"]);
    expect(runs[0].provider).toBe("vault");
    expect(runs[0].env).toEqual({ GIVEN: "1", PASSED: "yes" });
  });

  it("exec refs: plain output only with jsonOnly false; a slow, failing, writable or untrusted resolver is named", () => {
    const dir = tmp();
    const plain = resolver(dir, `process.stdout.write("sk-plain\\n");`);
    const run = (provider: Record<string, unknown>, id = "one") =>
      resolveSecretRefs({ secrets: { providers: { r: { source: "exec", ...provider } } }, ...apiKeyRef({ source: "exec", provider: "r", id }) }, {});
    expect(apiKeyOf(run({ command: plain, jsonOnly: false }).config)).toBe("sk-plain");
    expect(messages(run({ command: plain }))[0]).toContain("did not answer with the JSON protocol");
    const slow = resolver(dir, `await new Promise((r) => setTimeout(r, 5000));`);
    expect(messages(run({ command: slow, timeoutMs: 200 }))[0]).toContain(`resolver ${slow} did not answer within 200 ms (timeoutMs)`);
    const failing = resolver(dir, `process.exit(3);`);
    expect(messages(run({ command: failing }))[0]).toContain(`resolver ${failing} exited with code 3`);
    const writable = resolver(dir, `process.stdout.write("{}");`, 0o777);
    expect(messages(run({ command: writable }))[0]).toContain(`resolver ${writable} is writable by group or others (mode 777): chmod go-w ${writable}`);
    expect(messages(run({ command: plain, trustedDirs: ["/opt/resolvers"] }))[0]).toContain(`resolver ${plain} is outside trustedDirs (/opt/resolvers)`);
    const wrongVersion = resolver(dir, `process.stdout.write(JSON.stringify({ protocolVersion: 2, values: {} }));`);
    expect(messages(run({ command: wrongVersion }))[0]).toContain("did not answer with protocolVersion 1 and a values object");
  });

  it("providers: the defaults, a ref to another source's entry, and keys of another source", () => {
    const dir = tmp();
    const single = privateFile(dir, "single", "sk-default-file");
    const withDefault = { secrets: { providers: { mine: { source: "file", path: single, mode: "singleValue" } }, defaults: { file: "mine" } } };
    expect(apiKeyOf(resolveSecretRefs({ ...withDefault, ...apiKeyRef({ source: "file", id: "value" }) }, {}).config)).toBe("sk-default-file");
    expect(messages(resolveSecretRefs({ ...withDefault, ...apiKeyRef({ source: "exec", provider: "mine", id: "x" }) }, {}))).toEqual([
      "models.providers.p.apiKey: SecretRef exec:mine:x: secrets.providers.mine is a file provider, not exec",
    ]);
    const mixed = { secrets: { providers: { e: { source: "env", path: "/x", command: "/bin/true" } } }, ...apiKeyRef({ source: "env", provider: "e", id: "K" }) };
    expect(messages(resolveSecretRefs(mixed, { K: "v" }))).toEqual([
      "secrets.providers.e.path: env providers do not take path",
      "secrets.providers.e.command: env providers do not take command",
    ]);
  });
});

describe("values read through SecretRefs in traces", () => {
  it("are masked whatever key they sit at (a custom header is no secret by its name)", () => {
    const { config } = validateConfig(
      { models: { providers: { p: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", headers: { "X-Team": { source: "env", id: "TEAM_HEADER" } } } } } },
      { TEAM_HEADER: "team-value-from-ref-5531" },
    );
    const redactor = new TraceRedactor(config, {});
    expect(redactor.text("the header was team-value-from-ref-5531")).toBe("the header was [redacted]");
  });
});

describe("validateConfig with SecretRefs", () => {
  it("reads them before the shape check, so a channel token's own rules apply to the value read", () => {
    const bad = () => validateConfig({ channels: { telegram: { botToken: { source: "env", id: "TG_TOKEN" } } } }, { TG_TOKEN: "not-a-bot-token" });
    expect(bad).toThrow(/channels\.telegram\.botToken: expected a bot token from @BotFather/);
    const good = validateConfig({ channels: { telegram: { botToken: { source: "env", id: "TG_TOKEN" } } } }, { TG_TOKEN: "123456:ABCdef" });
    expect(good.config.channels?.telegram?.botToken).toBe("123456:ABCdef");
    expect(good.secretPaths).toEqual(["channels.telegram.botToken"]);
  });
});

describe("exec resolvers read without blocking, and answers reused", () => {
  it("the awaited run ends as the blocking one does: an answer, a timeout, too much output, a missing command", async () => {
    const dir = tmp();
    const ok = resolver(dir, `process.stdout.write(JSON.stringify({ protocolVersion: 1, values: { a: "sk-async" } }));`);
    expect(await readExecSecretsAsync("r", { source: "exec", command: ok }, ["a"], {})).toEqual(new Map([["a", { value: "sk-async" }]]));
    const slow = resolver(dir, `await new Promise((r) => setTimeout(r, 5000));`);
    expect([...(await readExecSecretsAsync("r", { source: "exec", command: slow, timeoutMs: 200 }, ["a"], {})).values()][0]).toEqual({
      problem: `resolver ${slow} did not answer within 200 ms (timeoutMs)`,
    });
    const chatty = resolver(dir, `process.stdout.write("x".repeat(5000));`);
    expect([...(await readExecSecretsAsync("r", { source: "exec", command: chatty, maxOutputBytes: 100 }, ["a"], {})).values()][0]).toEqual({
      problem: `resolver ${chatty} wrote more than maxOutputBytes (100 bytes)`,
    });
    const gone = path.join(dir, "gone");
    expect([...(await readExecSecretsAsync("r", { source: "exec", command: gone }, ["a"], {})).values()][0]).toEqual({ problem: `resolver ${gone} does not exist` });
  });

  it("a prefetched answer is what a later view reads; the resolver is not run again for it", async () => {
    const dir = tmp();
    const runs = path.join(dir, "runs");
    const command = resolver(
      dir,
      `(await import("node:fs")).appendFileSync(${JSON.stringify(runs)}, "run\\n"); process.stdout.write(JSON.stringify({ protocolVersion: 1, values: { k: "sk-once" } }));`,
    );
    const request = { alias: "once", provider: { source: "exec" as const, command }, ids: ["k"] };
    const reads = await prefetchExecReads([request], {});
    expect(reads(request, {}).get("k")).toEqual({ value: "sk-once" });
    expect(answeredExecReads(request, {}).get("k")).toEqual({ value: "sk-once" });
    expect(fs.readFileSync(runs, "utf8")).toBe("run\n");
  });
});

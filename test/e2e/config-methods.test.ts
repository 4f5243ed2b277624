import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

const YAML = "# hand-written\ngateway:\n  mode: local\nlogging:\n  level: info # keep quiet\n";

let gw: GatewayProcess;
let file: string;
let admin: TestSocket;
beforeAll(async () => {
  gw = await startGateway({ configFile: { name: "openclaw.yaml", content: YAML } });
  file = path.join(gw.stateDir, "openclaw.yaml");
  admin = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  admin?.close();
  await gw?.stop();
});

describe("config.* over the gateway", () => {
  it("config.get returns the file, its hash and the applied hash", async () => {
    const res = await admin.request("config.get", {});
    expect(res.ok).toBe(true);
    expect(res.payload).toMatchObject({ path: file, exists: true, format: "yaml", valid: true });
    expect(res.payload.raw).toContain("# keep quiet");
    expect(res.payload.hash).toBe(res.payload.appliedConfigHash);
  });

  it("config.patch applies live and tells watchers with config.changed", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const res = await admin.request("config.patch", { raw: "{ logging: { level: 'debug' } }", baseHash: snap.hash });
    expect(res.ok).toBe(true);
    expect(res.payload).toMatchObject({ applied: true, changedPaths: ["logging.level"], restartRequiredPaths: [] });
    await admin.waitFor((f) => f.type === "event" && f.event === "config.changed" && f.payload.hash === res.payload.hash);
    expect(fs.readFileSync(file, "utf8")).toContain("level: debug # keep quiet");
    const status = await admin.request("status", {});
    expect(status.payload.configHash).toBe(res.payload.hash);
  });

  it("two editors racing on config.set from the same hash: one wins, the other gets a conflict", async () => {
    const other = (await openOperator(gw.url, gw.token)).sock;
    try {
      const { payload: snap } = await admin.request("config.get", {});
      const [a, b] = await Promise.all([
        admin.request("config.set", { raw: snap.raw.replace("level: debug", "level: warn"), baseHash: snap.hash }),
        other.request("config.set", { raw: snap.raw.replace("level: debug", "level: error"), baseHash: snap.hash }),
      ]);
      const winner = a.ok ? a : b;
      const loser = a.ok ? b : a;
      expect(winner.ok).toBe(true);
      expect(loser.ok).toBe(false);
      expect(loser.error.details).toMatchObject({ code: "CONFIG_CONFLICT", currentHash: winner.payload.hash });
      expect(loser.error.message).toMatch(/changed since it was read/);
      const after = await admin.request("config.get", {});
      expect(after.payload.hash).toBe(winner.payload.hash);
    } finally {
      other.close();
    }
  });

  it("an edit with an error is rejected at its key path and nothing is written", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const before = fs.readFileSync(file, "utf8");
    const res = await admin.request("config.set", { raw: "gateway:\n  mode: local\n  bind: everywhere\n", baseHash: snap.hash });
    expect(res.ok).toBe(false);
    expect(res.error.details.code).toBe("CONFIG_INVALID");
    expect(res.error.details.issues[0].path).toBe("gateway.bind");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect((await admin.request("config.get", {})).payload.hash).toBe(snap.hash);
  });

  it("an edit the gateway could not start on is refused at its key, for set, patch and apply, and nothing is written", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const before = fs.readFileSync(file, "utf8");
    const edits: [string, Record<string, unknown>, string, RegExp][] = [
      [
        "config.set",
        { raw: "gateway:\n  bind: lan\n  auth:\n    mode: none\n" },
        "gateway.auth.mode",
        /would not start: refusing to bind gateway to 0\.0\.0\.0:\d+ without auth \(set gateway\.auth\.mode to "token", "password" or "trusted-proxy"\)/,
      ],
      ["config.patch", { raw: "{ gateway: { bind: 'lan', auth: { mode: 'none' } } }" }, "gateway.auth.mode", /without auth/],
      ["config.apply", { raw: "gateway:\n  bind: lan\n  auth:\n    mode: none\n", restartDelayMs: 0 }, "gateway.auth.mode", /without auth/],
      [
        "config.patch",
        { raw: "{ gateway: { auth: { mode: 'password' } } }" },
        "gateway.auth.password",
        /would not start: gateway\.auth\.mode is "password" but no password is set/,
      ],
      ["config.patch", { raw: "{ gateway: { mode: 'remote' } }" }, "gateway.mode", /would not start: gateway\.mode is "remote"/],
    ];
    for (const [method, params, key, message] of edits) {
      const res = await admin.request(method, { ...params, baseHash: snap.hash });
      expect(res.error?.details, method).toMatchObject({ code: "CONFIG_INVALID", issues: [expect.objectContaining({ path: key, message: expect.stringMatching(message) })] });
      expect(fs.readFileSync(file, "utf8"), method).toBe(before);
    }
    expect((await admin.request("health", {})).ok).toBe(true);
    expect(gw.proc.exitCode).toBeNull();
  });

  it("a session.mainKey no session key may hold is refused at its key, and nothing is written", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const before = fs.readFileSync(file, "utf8");
    for (const mainKey of ["../x", "a\u0000b", "home:", "a::b", "back\\slash"]) {
      const res = await admin.request("config.patch", { raw: JSON.stringify({ session: { mainKey } }), baseHash: snap.hash });
      expect(res.error?.details, mainKey).toMatchObject({
        code: "CONFIG_INVALID",
        issues: [expect.objectContaining({ path: "session.mainKey", message: expect.stringMatching(/^expected a session name/) })],
      });
      expect(fs.readFileSync(file, "utf8"), mainKey).toBe(before);
    }
    const fine = await admin.request("config.patch", { raw: JSON.stringify({ session: { mainKey: "home" } }), baseHash: snap.hash });
    expect(fine.payload).toMatchObject({ applied: true, changedPaths: ["session.mainKey"] });
    const back = await admin.request("config.patch", { raw: JSON.stringify({ session: { mainKey: null } }), baseHash: fine.payload.hash });
    expect(back.ok).toBe(true);
  });

  it("an edit that would write a key this gateway does not know is refused at that key, for set, patch and apply, and nothing is written", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const before = fs.readFileSync(file, "utf8");
    const edits: [string, Record<string, unknown>, string][] = [
      ["config.patch", { raw: "{ loggin: { level: 'warn' } }" }, "loggin"],
      ["config.patch", { raw: '{ "__proto__": { "polluted": true } }' }, "__proto__"],
      ["config.patch", { raw: "{ models: { providers: { constructor: { api: 'openai-completions', baseUrl: 'http://127.0.0.1:1/v1' } } } }" }, "models.providers.constructor"],
      ["config.patch", { raw: "{ logging: { prototype: 1 } }" }, "logging.prototype"],
      ["config.set", { raw: `${before}gateway2:\n  mode: local\n` }, "gateway2"],
      ["config.set", { raw: `${before}agents:\n  defaults:\n    __proto__:\n      x: 1\n` }, "agents.defaults.__proto__"],
      ["config.apply", { raw: `${before}extra: true\n`, restartDelayMs: 0 }, "extra"],
    ];
    for (const [method, params, key] of edits) {
      const res = await admin.request(method, { ...params, baseHash: snap.hash });
      expect(res.error?.code, `${method} ${key}`).toBe("INVALID_REQUEST");
      expect(res.error.details, `${method} ${key}`).toMatchObject({
        code: "CONFIG_INVALID",
        issues: [expect.objectContaining({ path: key, message: expect.stringMatching(/^not a config key this gateway knows/) })],
      });
      expect(fs.readFileSync(file, "utf8"), `${method} ${key}`).toBe(before);
    }
    const typo = await admin.request("config.patch", { raw: "{ loggin: { level: 'warn' } }", baseHash: snap.hash });
    expect(typo.error.details.issues[0].message).toContain('did you mean "logging"?');
    expect(JSON.stringify((await admin.request("config.get", {})).payload)).not.toContain("polluted");
  });

  it("a key the hand-written file already holds that this gateway does not know stays (with its warning) through an edit of another key", async () => {
    const before = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, `${before}futureFeature:\n  on: true\n`);
    try {
      const { payload: snap } = await admin.request("config.get", {});
      const res = await admin.request("config.patch", { raw: "{ logging: { level: 'warn' } }", baseHash: snap.hash });
      expect(res.ok).toBe(true);
      expect(res.payload.warnings).toEqual([expect.stringContaining('unknown config key "futureFeature"')]);
      expect(fs.readFileSync(file, "utf8")).toContain("futureFeature:");
    } finally {
      const { payload: snap } = await admin.request("config.get", {});
      expect((await admin.request("config.set", { raw: before, baseHash: snap.hash })).ok).toBe(true);
    }
  });

  it("a provider baseUrl that is not an http(s) URL is refused at its key path with an example, for set, patch and apply, and nothing is written", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const before = fs.readFileSync(file, "utf8");
    const provider = (baseUrl: string) => `models:\n  providers:\n    local:\n      api: openai-completions\n      baseUrl: "${baseUrl}"\n`;
    const edits: [string, Record<string, unknown>][] = [
      ["config.patch", { raw: JSON.stringify({ models: { providers: { local: { api: "openai-completions", baseUrl: "localhost:11434/v1" } } } }) }],
      ["config.patch", { raw: JSON.stringify({ models: { providers: { local: { baseUrl: "ftp://models.example/v1" } } } }) }],
      ["config.set", { raw: `${before}${provider("api.openai.com/v1")}` }],
      ["config.apply", { raw: `${before}${provider("")}`, restartDelayMs: 0 }],
    ];
    for (const [method, params] of edits) {
      const res = await admin.request(method, { ...params, baseHash: snap.hash });
      expect(res.error?.details, method).toMatchObject({
        code: "CONFIG_INVALID",
        issues: [{ path: "models.providers.local.baseUrl", message: 'expected an http(s) URL such as "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1"' }],
      });
      expect(fs.readFileSync(file, "utf8"), method).toBe(before);
    }
    const embeddings = await admin.request("config.patch", { raw: JSON.stringify({ memory: { search: { remote: { baseUrl: "localhost:11434/v1" } } } }), baseHash: snap.hash });
    expect(embeddings.error?.details).toMatchObject({
      code: "CONFIG_INVALID",
      issues: [{ path: "memory.search.remote.baseUrl", message: 'expected an http(s) URL such as "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1"' }],
    });
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("says which keys need a restart and keeps serving", async () => {
    const { payload: snap } = await admin.request("config.get", {});
    const res = await admin.request("config.patch", { raw: "{ gateway: { port: 18799 } }", baseHash: snap.hash });
    expect(res.payload.restartRequiredPaths).toEqual(["gateway.port"]);
    expect((await admin.request("health", {})).ok).toBe(true);
    // The webhook routes are registered once, with their path and body cap.
    const hooks = await admin.request("config.patch", { raw: "{ hooks: { path: '/inbound', maxBodyBytes: 4096, allowRequestSessionKey: true } }", baseHash: res.payload.hash });
    expect(hooks.payload).toMatchObject({ applied: true, restartRequiredPaths: ["hooks.maxBodyBytes", "hooks.path"] });
  });

  it("writes need operator.admin; reading needs operator.read", async () => {
    const reader = (await openOperator(gw.url, gw.token, { scopes: ["operator.read"] })).sock;
    try {
      const { payload: snap } = await reader.request("config.get", {});
      expect(JSON.stringify(snap)).not.toContain(gw.token);
      const res = await reader.request("config.set", { raw: "{}", baseHash: snap.hash });
      expect(res.error).toMatchObject({ code: "FORBIDDEN", details: { missingScope: "operator.admin" } });
      expect((await reader.request("config.schema", {})).ok).toBe(false);
    } finally {
      reader.close();
    }
  });

  it("config.schema.lookup answers one key (a read), with whether a change there applies live, and its keys one level down", async () => {
    const reader = (await openOperator(gw.url, gw.token, { scopes: ["operator.read"] })).sock;
    try {
      const auth = await reader.request("config.schema.lookup", { path: "gateway.auth" });
      expect(auth.payload).toMatchObject({ path: "gateway.auth", reloadKind: "restart" });
      expect(auth.payload.children).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: "token", path: "gateway.auth.token", type: "string", hint: { sensitive: true }, reloadKind: "restart" })]),
      );
      const level = await reader.request("config.schema.lookup", { path: "logging.level" });
      expect(level.payload).toMatchObject({ reloadKind: "hot", children: [] });
      expect(level.payload.schema).toMatchObject({ type: ["string"], enum: expect.arrayContaining(["debug", "info"]) });
      const missing = await reader.request("config.schema.lookup", { path: "logging.nope" });
      expect(missing.error).toMatchObject({ code: "INVALID_REQUEST", details: { code: "CONFIG_SCHEMA_PATH_NOT_FOUND" } });
    } finally {
      reader.close();
    }
  });

  it("config.schema lists the schema and marks credentials sensitive", async () => {
    const res = await admin.request("config.schema", {});
    expect(res.payload.schema.properties.gateway).toBeTruthy();
    expect(res.payload.uiHints["gateway.auth.token"]).toEqual({ sensitive: true });
  });
});

describe("a config file that no longer parses", () => {
  it("is not patched (a patch would start from nothing and replace the file whole), but config.set may replace it", async () => {
    const json = `{\n  // mine\n  gateway: { mode: "local" },\n  logging: { level: "info" },\n}\n`;
    const own = await startGateway({ configFile: { name: "openclaw.json", content: json } });
    const sock = (await openOperator(own.url, own.token)).sock;
    try {
      const jsonFile = path.join(own.stateDir, "openclaw.json");
      // A hand edit left half done: the running gateway keeps its config, the file no longer parses.
      const broken = json.replace('level: "info" },', 'level: "info" ,');
      fs.writeFileSync(jsonFile, broken);
      const { payload: snap } = await sock.request("config.get", {});
      expect(snap.valid).toBe(false);
      const patch = await sock.request("config.patch", { raw: "{ logging: { level: 'warn' } }", baseHash: snap.hash });
      expect(patch.ok).toBe(false);
      expect(patch.error.message).toMatch(/does not parse, so it cannot be patched/);
      expect(fs.readFileSync(jsonFile, "utf8")).toBe(broken);
      // Replacing the whole text is how the file is mended over the gateway.
      const set = await sock.request("config.set", { raw: json, baseHash: snap.hash });
      expect(set.ok).toBe(true);
      expect(fs.readFileSync(jsonFile, "utf8")).toBe(json);
    } finally {
      sock.close();
      await own.stop();
    }
  });
});

describe("logs.tail", () => {
  it("returns the last lines, then follows with the cursor", async () => {
    const first = await admin.request("logs.tail", { limit: 50 });
    expect(first.ok).toBe(true);
    expect(first.payload.lines.some((l: string) => l.includes('"msg":"gateway listening"'))).toBe(true);
    // Something new gets logged: a config write logs "config reloaded".
    const { payload: snap } = await admin.request("config.get", {});
    await admin.request("config.patch", { raw: "{ logging: { level: 'info' } }", baseHash: snap.hash });
    let lines: string[] = [];
    let cursor = first.payload.cursor;
    // The log file is written synchronously before the response; one read suffices, a second covers slow disks.
    for (let i = 0; i < 50 && !lines.some((l) => l.includes("config reloaded")); i++) {
      const next = await admin.request("logs.tail", { cursor });
      lines = lines.concat(next.payload.lines);
      cursor = next.payload.cursor;
    }
    expect(lines.some((l) => l.includes("config reloaded"))).toBe(true);
    expect(lines.some((l) => l.includes("gateway listening"))).toBe(false);
  });

  it("rejects out-of-range params", async () => {
    const res = await admin.request("logs.tail", { limit: 0 });
    expect(res.error.code).toBe("INVALID_REQUEST");
  });
});

describe("config.apply", () => {
  it("answers what will happen, then restarts the gateway in the same process when a changed key needs it", async () => {
    const own = await startGateway({ configFile: { name: "openclaw.yaml", content: YAML } });
    let sock = (await openOperator(own.url, own.token)).sock;
    try {
      let snap = (await sock.request("config.get", {})).payload;
      const live = await sock.request("config.apply", { raw: snap.raw.replace("level: info", "level: debug"), baseHash: snap.hash });
      expect(live.payload).toMatchObject({ applied: true, changedPaths: ["logging.level"], restart: { scheduled: false, reason: "nothing that changed needs a restart" } });

      const refused = await sock.request("config.apply", { raw: "gateway:\n  bind: everywhere\n", baseHash: live.payload.hash });
      expect(refused.error.details).toMatchObject({ code: "CONFIG_INVALID", issues: [expect.objectContaining({ path: "gateway.bind" })] });

      snap = (await sock.request("config.get", {})).payload;
      const raw = snap.raw.replace("  mode: local\n", '  mode: local\n  controlUi:\n    allowedOrigins: ["http://example.test"]\n');
      const shutdown = sock.waitFor((f) => f.type === "event" && f.event === "shutdown", 20_000);
      const res = await sock.request("config.apply", { raw, baseHash: snap.hash, restartDelayMs: 100 });
      expect(res.payload).toMatchObject({
        restartRequiredPaths: ["gateway.controlUi.allowedOrigins[0]"],
        restart: { scheduled: true, delayMs: 100, paths: ["gateway.controlUi.allowedOrigins[0]"] },
      });
      expect((await shutdown).payload).toMatchObject({ reason: expect.stringContaining("config.apply"), restartExpectedMs: 3000 });
      await own.waitForOutput(/gateway listening[\s\S]*gateway stopping[\s\S]*"msg":"gateway listening"/, 20_000);
      sock.close();

      // The same process on the same port, with the new config in force and nothing waiting for a restart.
      sock = (await openOperator(own.url, own.token)).sock;
      const status = await sock.request("status", {});
      expect(status.payload.configHash).toBe(res.payload.hash);
      expect(status.payload.configReload.pendingRestartPaths).toEqual([]);
      expect(own.proc.exitCode).toBeNull();
      expect((await sock.request("config.get", {})).payload.config.gateway.controlUi.allowedOrigins).toEqual(["http://example.test"]);
    } finally {
      sock.close();
      await own.stop();
    }
  }, 60_000);
});

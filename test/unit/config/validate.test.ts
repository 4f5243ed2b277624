import { describe, expect, it } from "vitest";
import { ConfigError, validateConfig } from "../../../src/config/index.js";

function validationError(raw: unknown): ConfigError {
  try {
    validateConfig(raw, {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("validateConfig: bad values", () => {
  it("names the key and the allowed range for a bad port", () => {
    for (const port of [0, 70000, 1.5, "18789"]) {
      const err = validationError({ gateway: { port } });
      expect(err.message).toBe("gateway.port: expected integer 1-65535");
      expect(err.issues).toEqual([{ path: "gateway.port", message: "expected integer 1-65535" }]);
    }
  });

  it("lists the choices for a bad enum value", () => {
    expect(validationError({ gateway: { bind: "0.0.0.0" } }).message).toBe('gateway.bind: expected one of "loopback", "lan", "auto", "tailnet", "custom"');
    expect(validationError({ logging: { level: "verbose" } }).message).toMatch(/^logging\.level: expected one of "fatal"/);
  });

  it("lists every problem, one per line", () => {
    const err = validationError({
      gateway: { port: -1, reload: { mode: "hot" }, controlUi: { enabled: "yes", allowedOrigins: "x" } },
      session: { reset: { atHour: 24 } },
    });
    expect(err.message.split("\n")).toEqual([
      "gateway.port: expected integer 1-65535",
      'gateway.reload.mode: expected one of "hybrid", "off"',
      "gateway.controlUi.enabled: expected boolean",
      "gateway.controlUi.allowedOrigins: expected array",
      "session.reset.atHour: expected integer 0-23",
    ]);
    expect(err.issues).toHaveLength(5);
  });

  it("uses bracket paths inside arrays and reports missing required keys", () => {
    const err = validationError({
      models: {
        providers: {
          fake: {
            models: [
              { id: "a", contextWindow: 0 },
              { name: "no id", input: ["audio"] },
            ],
          },
        },
      },
    });
    expect(err.message.split("\n")).toEqual([
      "models.providers.fake.models[0].contextWindow: expected integer >= 1",
      "models.providers.fake.models[1].id: required",
      'models.providers.fake.models[1].input[0]: expected one of "text", "image"',
    ]);
  });

  it("an ACP binding needs its peer, and only ACP bindings take acp settings", () => {
    const err = validationError({
      bindings: [
        { type: "acp", agentId: "codex", match: { channel: "telegram" } },
        { agentId: "main", match: { channel: "telegram", peer: { id: "1" } }, acp: { label: "x" } },
        { type: "acp", agentId: "codex", match: { channel: "telegram", peer: { id: "*" } } },
      ],
    });
    expect(err.message.split("\n")).toEqual([
      'bindings[0].match.peer: required for a binding of type "acp" (it binds one chat)',
      'bindings[1].acp: only a binding of type "acp" takes ACP settings',
      'bindings[2].match.peer.id: a binding of type "acp" binds one chat: name its id ("*" is every chat, for route bindings only)',
    ]);
  });

  it("quotes record keys that are not plain words", () => {
    const err = validationError({ agents: { defaults: { models: { "openai/gpt-4.1": { alias: 5 } } } } });
    expect(err.message).toBe('agents.defaults.models["openai/gpt-4.1"].alias: expected string');
  });

  it("caps textChunkLimit at what each platform takes in one message, on the block and on an account", () => {
    const err = validationError({
      channels: { telegram: { textChunkLimit: 5000 }, discord: { accounts: { work: { textChunkLimit: 2001 } } }, slack: { textChunkLimit: 40_001 } },
    });
    expect(err.message.split("\n")).toEqual([
      "channels.telegram.textChunkLimit: expected integer 100-4096 (Telegram refuses a longer message)",
      "channels.discord.accounts.work.textChunkLimit: expected integer 100-2000 (Discord refuses a longer message)",
      "channels.slack.textChunkLimit: expected integer 100-40000 (Slack cuts a longer message short)",
    ]);
    const { config } = validateConfig({ channels: { telegram: { textChunkLimit: 4096 }, discord: { textChunkLimit: 2000 }, slack: { textChunkLimit: 40_000 } } }, {});
    expect([config.channels?.telegram?.textChunkLimit, config.channels?.discord?.textChunkLimit, config.channels?.slack?.textChunkLimit]).toEqual([4096, 2000, 40_000]);
  });

  it("refuses a timeout longer than a timer holds (2147483 s, about 24.8 days), which would expire at once", () => {
    const provider = { timeoutSeconds: 3_000_000, firstByteTimeoutSeconds: 2_147_484, idleTimeoutSeconds: 1e9 };
    const err = validationError({ models: { providers: { p: provider } }, agents: { defaults: { compaction: { timeoutSeconds: 2_147_484 } } } });
    const why = "2147483 (about 24.8 days, the longest a timer holds)";
    expect(err.message.split("\n")).toEqual([
      `agents.defaults.compaction.timeoutSeconds: expected whole seconds 1-${why}`,
      `models.providers.p.timeoutSeconds: expected seconds > 0, at most ${why}`,
      `models.providers.p.firstByteTimeoutSeconds: expected seconds > 0, at most ${why}`,
      `models.providers.p.idleTimeoutSeconds: expected seconds > 0, at most ${why}`,
    ]);
    const { config } = validateConfig({ models: { providers: { p: { idleTimeoutSeconds: 2_147_483 } } }, agents: { defaults: { compaction: { timeoutSeconds: 2_147_483 } } } }, {});
    expect(config.models.providers?.p?.idleTimeoutSeconds).toBe(2_147_483);
  });

  it("explains number bounds and patterns", () => {
    expect(validationError({ agents: { defaults: { maxConcurrent: 0 } } }).message).toBe("agents.defaults.maxConcurrent: expected integer >= 1");
    expect(validationError({ agents: { list: [{ id: "Main" }] } }).message).toBe(
      "agents.list[0].id: expected an agent id: 1-64 of a-z, 0-9, _ or -, starting with a letter or digit",
    );
  });

  it("reports inside the object form of a string-or-object model", () => {
    expect(validationError({ agents: { defaults: { model: { primary: "a/b", fallbacks: "c/d" } } } }).message).toBe("agents.defaults.model.fallbacks: expected array");
    expect(validationError({ agents: { defaults: { model: 42 } } }).message).toBe("agents.defaults.model: expected non-empty string or object");
  });

  it("refuses a heartbeat interval the heartbeat could not read, naming the key", () => {
    const expected = "expected a duration such as 30m, 1h30m or 0m (off): units d, h, m, s, ms, largest first, each once";
    for (const every of ["30m1h", "1m1m", "1ms1s", "30 m", "30", "999999999d"]) {
      expect(validationError({ agents: { defaults: { heartbeat: { every } } } }).message).toBe(`agents.defaults.heartbeat.every: ${expected}`);
      expect(validationError({ agents: { entries: { ops: { heartbeat: { every } } } } }).message).toBe(`agents.entries.ops.heartbeat.every: ${expected}`);
    }
    for (const every of ["0m", "30m", "1h30m", "1d2h3m4s5ms", "5ms", "1m5ms"]) {
      expect(validateConfig({ agents: { defaults: { heartbeat: { every } } } }, {}).config.agents.defaults.heartbeat?.every).toBe(every);
    }
  });

  it("says which section has the wrong type", () => {
    expect(validationError({ gateway: "local" }).message).toBe("gateway: expected object");
  });

  it("never echoes a secret in the message", () => {
    const err = validationError({ gateway: { auth: { token: 12345678, password: ["hunter2"] } } });
    expect(err.message).not.toMatch(/12345678|hunter2/);
    expect(err.message).toBe("gateway.auth.token: expected string\ngateway.auth.password: expected string");
  });
});

describe("validateConfig: cross-key rules", () => {
  it("requires gateway.auth.mode when both token and password are set", () => {
    const err = validationError({ gateway: { auth: { token: "t", password: "p" } } });
    expect(err.message).toBe("gateway.auth.mode: required when both token and password are set");
    expect(validateConfig({ gateway: { auth: { token: "t", password: "p", mode: "password" } } }, {}).config.gateway.auth.mode).toBe("password");
  });

  it('requires a proxy, a user header and no token for gateway.auth.mode "trusted-proxy"', () => {
    const paths = (raw: unknown) => validationError(raw).issues.map((issue) => issue.path);
    expect(paths({ gateway: { auth: { mode: "trusted-proxy" } } })).toEqual(["gateway.auth.trustedProxy", "gateway.trustedProxies"]);
    expect(paths({ gateway: { trustedProxies: ["10.0.0.1"], auth: { mode: "trusted-proxy", token: "t", trustedProxy: { userHeader: " " } } } })).toEqual([
      "gateway.auth.trustedProxy.userHeader",
      "gateway.auth.token",
    ]);
    expect(paths({ gateway: { auth: { identityScopes: { "a@b.c": ["operator.everything"] } } } })).toEqual(['gateway.auth.identityScopes["a@b.c"][0]']);
    const ok = { gateway: { trustedProxies: ["10.0.0.1"], auth: { mode: "trusted-proxy", password: "p", trustedProxy: { userHeader: "x-forwarded-user" } } } };
    expect(validateConfig(ok, {}).config.gateway.auth.mode).toBe("trusted-proxy");
  });

  it("warns that trustedProxy and identityScopes do nothing in another auth mode", () => {
    const { warnings } = validateConfig({ gateway: { auth: { mode: "token", trustedProxy: { userHeader: "x-user" }, identityScopes: {} } } }, {});
    expect(warnings).toEqual([
      'gateway.auth.trustedProxy is ignored: gateway.auth.mode is "token", not "trusted-proxy" (set the mode to use it, or remove it)',
      'gateway.auth.identityScopes is ignored: gateway.auth.mode is "token", not "trusted-proxy" (set the mode to use it, or remove it)',
    ]);
  });

  it("requires customBindHost for bind custom", () => {
    expect(validationError({ gateway: { bind: "custom" } }).message).toBe('gateway.customBindHost: required when gateway.bind is "custom"');
  });

  it('refuses session.scope "global", which this gateway does not implement', () => {
    expect(validationError({ session: { scope: "global" } }).message).toMatch(/^session\.scope: "global" is not supported by this gateway/);
    expect(validateConfig({ session: { scope: "per-sender" } }, {}).config.session.scope).toBe("per-sender");
  });

  it("a wake mapping refuses the keys only an agent turn has, naming each", () => {
    const mappings = [
      { match: { path: "ok" }, action: "wake", sessionKey: "hook:x", messageTemplate: "t", agentId: "main", wakeMode: "next-heartbeat" },
      { match: { path: "deploy" }, action: "wake", name: "CI", sessionMode: "isolated", deliver: true, channel: "telegram", to: "1", model: "a/b" },
    ];
    expect(validationError({ hooks: { mappings } }).message.split("\n")).toEqual(
      ["name", "sessionMode", "deliver", "channel", "to", "model"].map(
        (key) =>
          `hooks.mappings[1].${key}: only a mapping with action "agent" takes it (a "wake" mapping hands its text to the heartbeat as a system event, it runs no turn of its own)`,
      ),
    );
  });

  it('an agent mapping with sessionMode "persistent" needs a session key to keep: its own, or hooks.defaultSessionKey', () => {
    const keep = { match: { path: "keep" }, action: "agent", sessionMode: "persistent" };
    expect(validationError({ hooks: { mappings: [keep] } }).message).toBe(
      'hooks.mappings[0].sessionMode: a "persistent" mapping needs a session to keep: give it a sessionKey, or set hooks.defaultSessionKey',
    );
    expect(validateConfig({ hooks: { mappings: [{ ...keep, sessionKey: "hook:keep" }] } }, {}).config.hooks?.mappings?.[0]?.sessionMode).toBe("persistent");
    expect(validateConfig({ hooks: { defaultSessionKey: "hook:inbox", mappings: [keep] } }, {}).warnings).toEqual([]);
  });

  it("a binding for a channel this gateway does not have (OpenClaw's whatsapp) loads with a warning that it never matches", () => {
    const bindings = [
      { agentId: "main", match: { channel: "whatsapp", peer: { kind: "direct", id: "+1555" } } },
      { agentId: "main", match: { channel: "Telegram" } },
    ];
    const { config, warnings } = validateConfig({ bindings }, {});
    expect(config.bindings).toHaveLength(2);
    expect(warnings).toEqual(['bindings[0].match.channel: "whatsapp" is not a channel of this gateway (telegram, discord, slack), so this binding never matches']);
  });

  it('a binding without accountId on a channel with no account named "default" loads with a warning that it never matches', () => {
    const telegram = { accounts: { home: { botToken: "1:a" }, work: { botToken: "2:b" } } };
    const bindings = [
      { agentId: "main", match: { channel: "telegram" } },
      { agentId: "main", match: { channel: "telegram", accountId: "*" } },
      { agentId: "main", match: { channel: "telegram", accountId: "work" } },
    ];
    expect(validateConfig({ channels: { telegram }, bindings }, {}).warnings).toEqual([
      'bindings[0].match.accountId is not set, so this binding matches only the account "default", which channels.telegram does not have (its accounts: home, work); name the account, or "*" for every account',
    ]);
    const withDefault = { accounts: { default: { botToken: "1:a" }, work: { botToken: "2:b" } } };
    expect(validateConfig({ channels: { telegram: withDefault }, bindings }, {}).warnings).toEqual([]);
    expect(validateConfig({ channels: { telegram: { botToken: "1:a" } }, bindings: [bindings[0]] }, {}).warnings).toEqual([]);
  });

  it("a second agent marked default loads with a warning naming the one that is the default", () => {
    const { config, warnings } = validateConfig({ agents: { list: [{ id: "a" }, { id: "b", default: true }], entries: { c: { default: true } } } }, {});
    expect(config.agents.entries?.c?.default).toBe(true);
    expect(warnings).toEqual(['agents.entries.c.default is ignored: agent "b" is already marked default (the first one marked is the default agent)']);
  });

  it('gateway.customBindHost without gateway.bind "custom" loads with a warning naming the key and the fix', () => {
    const fix = 'set gateway.bind to "custom" to use it, or remove it; as it is, only `gateway run --bind custom` uses it';
    expect(validateConfig({ gateway: { customBindHost: "192.168.1.10" } }, {}).warnings).toEqual([
      `gateway.customBindHost is ignored: gateway.bind is not set (loopback), not "custom" (${fix})`,
    ]);
    expect(validateConfig({ gateway: { bind: "lan", customBindHost: "192.168.1.10", auth: { token: "t" } } }, {}).warnings).toEqual([
      `gateway.customBindHost is ignored: gateway.bind is "lan", not "custom" (${fix})`,
    ]);
    expect(validateConfig({ gateway: { bind: "custom", customBindHost: "192.168.1.10", auth: { token: "t" } } }, {}).warnings).toEqual([]);
  });

  it("a heartbeat to or accountId whose heartbeat target is none loads with a warning that the reply stays in the session", () => {
    expect(validateConfig({ agents: { defaults: { heartbeat: { to: "5", accountId: "ops" } } } }, {}).warnings).toEqual([
      'agents.defaults.heartbeat.to and agents.defaults.heartbeat.accountId are ignored: the heartbeat target is "none" (the default), so its reply stays in the session; set heartbeat.target to a channel id or "last"',
    ]);
    expect(
      validateConfig(
        {
          channels: { telegram: { botToken: "123:abc" } },
          agents: { defaults: { heartbeat: { target: "telegram", to: "7" } }, entries: { ops: { heartbeat: { target: "none", to: "5" } } } },
        },
        {},
      ).warnings,
    ).toEqual(['agents.entries.ops.heartbeat.to is ignored: the heartbeat target is "none", so its reply stays in the session; set heartbeat.target to a channel id or "last"']);
    // An agent's own target uses the defaults' chat.
    expect(
      validateConfig(
        { channels: { telegram: { botToken: "123:abc" } }, agents: { defaults: { heartbeat: { to: "5" } }, entries: { ops: { heartbeat: { target: "telegram" } } } } },
        {},
      ).warnings,
    ).toEqual([]);
    expect(validateConfig({ agents: { defaults: { heartbeat: { target: "last", to: "5" } } } }, {}).warnings).toEqual([]);
  });

  it("a heartbeat channel target that is not configured, or has no to, loads with a warning that replies reach no chat", () => {
    expect(validateConfig({ agents: { defaults: { heartbeat: { target: "pigeon", to: "5" } } } }, {}).warnings).toEqual([
      'agents.defaults.heartbeat.target is "pigeon" but channels.pigeon is not configured, so a heartbeat reply that is no acknowledgement reaches no chat (configure it, or use "last" or "none")',
    ]);
    const telegram = { telegram: { botToken: "123:abc" } };
    expect(validateConfig({ channels: telegram, agents: { entries: { ops: { heartbeat: { target: "telegram" } } } } }, {}).warnings).toEqual([
      'agents.entries.ops.heartbeat.target is "telegram" but no heartbeat.to names the chat, so a heartbeat reply that is no acknowledgement reaches no chat (set agents.entries.ops.heartbeat.to)',
    ]);
    expect(validateConfig({ channels: telegram, agents: { defaults: { heartbeat: { to: "5" } }, entries: { ops: { heartbeat: { target: "telegram" } } } } }, {}).warnings).toEqual(
      [],
    );
  });

  it("a heartbeat target owner warns when nothing names an owner, and that its to is ignored; not that channels.owner is missing", () => {
    expect(validateConfig({ agents: { defaults: { heartbeat: { target: "owner", to: "5" } } } }, {}).warnings).toEqual([
      "agents.defaults.heartbeat.to is ignored: target \"owner\" sends to the owner's DM (commands.ownerAllowFrom, else a channel's allowFrom)",
      'agents.defaults.heartbeat.target is "owner" but neither commands.ownerAllowFrom nor any channel\'s allowFrom names anyone, so a heartbeat reply that is no acknowledgement reaches no chat (add yourself to commands.ownerAllowFrom, e.g. "telegram:<your user id>")',
    ]);
    const heartbeat = { agents: { defaults: { heartbeat: { target: "owner" } } } };
    expect(validateConfig({ ...heartbeat, commands: { ownerAllowFrom: ["telegram:42"] } }, {}).warnings).toEqual([]);
    expect(validateConfig({ ...heartbeat, channels: { telegram: { botToken: "123:abc", accounts: { work: { allowFrom: ["42"] } } } } }, {}).warnings).toEqual([]);
  });

  it("heartbeat: an agent's session naming another agent's, and an owner target under directPolicy block, warn", () => {
    const owner = { commands: { ownerAllowFrom: ["telegram:42"] } };
    expect(validateConfig({ ...owner, agents: { entries: { ops: { heartbeat: { session: "agent:main:room" } } } } }, {}).warnings).toEqual([
      "agents.entries.ops.heartbeat.session names agent \"main\"'s session; this agent's beats run in its main session (name one of its own sessions)",
    ]);
    expect(validateConfig({ ...owner, agents: { entries: { ops: { heartbeat: { session: "agent:ops:room" } } } } }, {}).warnings).toEqual([]);
    expect(validateConfig({ ...owner, agents: { defaults: { heartbeat: { target: "owner", directPolicy: "block" } } } }, {}).warnings).toEqual([
      'agents.defaults.heartbeat.target is "owner", a DM, but heartbeat.directPolicy is "block", so a heartbeat reply that is no acknowledgement reaches no chat (use a group chat target, or directPolicy "allow")',
    ]);
  });

  it("session.identityLinks: a canonical id is one word and every peer is <channel>:<sender id>", () => {
    expect(validateConfig({ session: { identityLinks: { alice: ["telegram:1", "discord:2"] }, groupScope: "main" } }, {}).warnings).toEqual([]);
    expect(() => validateConfig({ session: { identityLinks: { "a b": ["telegram:1"] } } }, {})).toThrow(
      /session\.identityLinks\["a b"\]: "a b" is not a canonical id: 1-64 characters, no spaces or colons/,
    );
    expect(() => validateConfig({ session: { identityLinks: { alice: ["123"] } } }, {})).toThrow(
      /session\.identityLinks\.alice\[0\]: expected a peer written "<channel>:<sender id>"/,
    );
  });

  it("otel headers or serviceName without an endpoint load with a warning that nothing is exported", () => {
    expect(validateConfig({ diagnostics: { otel: { headers: { "x-key": "k" }, serviceName: "gw" } } }, {}).warnings).toEqual([
      "diagnostics.otel.headers, diagnostics.otel.serviceName are ignored: no diagnostics.otel.endpoint is set, so nothing is exported",
    ]);
    expect(validateConfig({ diagnostics: { otel: { serviceName: "gw" } } }, {}).warnings).toEqual([
      "diagnostics.otel.serviceName is ignored: no diagnostics.otel.endpoint is set, so nothing is exported",
    ]);
    expect(validateConfig({ diagnostics: { otel: { endpoint: "http://c:4318/v1/traces", serviceName: "gw" } } }, {}).warnings).toEqual([]);
    expect(validateConfig({ diagnostics: { otel: { serviceName: "gw" } } }, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }).warnings).toEqual([]);
  });

  it("a review judge needs a non-empty rubric, and its model is a provider/model ref", () => {
    const judge = (j: Record<string, unknown>) => () => validateConfig({ diagnostics: { traces: { review: { judge: j } } } }, {});
    expect(judge({ rubric: "  " })).toThrow("diagnostics.traces.review.judge.rubric: expected a non-empty rubric");
    expect(judge({ model: "fake/m" })).toThrow("diagnostics.traces.review.judge.rubric: required");
    expect(judge({ rubric: "ok", model: "judge-model" })).toThrow('diagnostics.traces.review.judge.model: expected a "provider/model" ref');
    expect(judge({ rubric: "Answers from the tools' results.", model: "fake/judge" })().warnings).toEqual([]);
  });

  it("otel metrics and logs are not supported, and enabled without an endpoint exports nothing: each loads with a warning", () => {
    const loaded = validateConfig({ diagnostics: { otel: { endpoint: "http://c:4318", metrics: true, logs: true, traces: true } } }, {});
    expect(loaded.warnings).toEqual([
      "diagnostics.otel.metrics was ignored: it is not supported: this gateway exports run traces only (remove it)",
      "diagnostics.otel.logs was ignored: it is not supported: this gateway exports run traces only (remove it)",
    ]);
    expect(loaded.config.diagnostics?.otel).toEqual({ endpoint: "http://c:4318", traces: true });
    expect(validateConfig({ diagnostics: { otel: { enabled: true } } }, {}).warnings).toEqual([
      "diagnostics.otel.enabled is true but no endpoint is set (diagnostics.otel.endpoint or tracesEndpoint, or $OTEL_EXPORTER_OTLP_ENDPOINT): nothing is exported",
    ]);
  });

  it("a mapping naming an agent hooks.allowedAgentIds leaves out loads with a warning that its requests are refused", () => {
    const hooks = (allowedAgentIds: string[]) => ({
      agents: { entries: { main: { default: true }, ops: {} } },
      hooks: { allowedAgentIds, mappings: [{ match: { path: "gmail" }, action: "agent", agentId: "ops" }] },
    });
    expect(validateConfig(hooks(["main"]), {}).warnings).toEqual([
      'hooks.mappings[0].agentId "ops" is not in hooks.allowedAgentIds, so every request to this mapping is refused (add it there, or name an allowed agent)',
    ]);
    expect(validateConfig(hooks(["main", "ops"]), {}).warnings).toEqual([]);
    expect(validateConfig(hooks(["*"]), {}).warnings).toEqual([]);
  });

  it("an agent mapping's wakeMode loads with a warning that it is ignored", () => {
    const mappings = [{ match: { path: "gmail" }, action: "agent", wakeMode: "now" }];
    const { config, warnings } = validateConfig({ hooks: { mappings } }, {});
    expect(config.hooks?.mappings?.[0]?.action).toBe("agent");
    expect(warnings).toEqual(['hooks.mappings[0].wakeMode is ignored: an "agent" mapping runs its turn in its own session and wakes no heartbeat (wakeMode is for action "wake")']);
  });

  it("rejects a logging.redactPatterns entry that is not a regular expression", () => {
    expect(validationError({ logging: { redactPatterns: ["ok-[0-9]+", "broken(["] } }).message).toMatch(/^logging\.redactPatterns\[1\]: not a valid regular expression/);
  });

  it("rejects a mentionPatterns entry that is not a regular expression, on a channel, an account or messages.groupChat", () => {
    const err = validationError({
      messages: { groupChat: { mentionPatterns: ["(unclosed"] } },
      channels: { telegram: { mentionPatterns: ["@bot", "[z-a]"], accounts: { work: { mentionPatterns: ["*bot"] } } }, slack: { mentionPatterns: ["ok"] } },
    });
    expect(err.issues.map((issue) => issue.path)).toEqual([
      "messages.groupChat.mentionPatterns[0]",
      "channels.telegram.mentionPatterns[1]",
      "channels.telegram.accounts.work.mentionPatterns[0]",
    ]);
    expect(err.message).toMatch(/^messages\.groupChat\.mentionPatterns\[0\]: not a valid regular expression \(/);
  });

  it("rejects a heartbeat activeHours.timezone that is not a time zone, wherever the heartbeat block is", () => {
    const window = (timezone: string) => ({ activeHours: { start: "08:00", end: "22:00", timezone } });
    const err = validationError({
      agents: { defaults: { heartbeat: window("Europe/Berln") }, entries: { ops: { heartbeat: window("Mars/Olympus") } }, list: [{ id: "main", heartbeat: window("Nowhere") }] },
    });
    expect(err.issues.map((issue) => issue.path)).toEqual([
      "agents.defaults.heartbeat.activeHours.timezone",
      "agents.entries.ops.heartbeat.activeHours.timezone",
      "agents.list[0].heartbeat.activeHours.timezone",
    ]);
    expect(err.message).toMatch(/^agents\.defaults\.heartbeat\.activeHours\.timezone: unknown time zone "Europe\/Berln"/);
    expect(validateConfig({ agents: { defaults: { heartbeat: window("Europe/Berlin") } } }, {}).config.agents.defaults.heartbeat?.activeHours?.timezone).toBe("Europe/Berlin");
  });

  it("refuses a modelPolicy.allow entry that is neither provider/model nor provider/*", () => {
    const err = validationError({
      agents: { defaults: { modelPolicy: { allow: ["alpha/a1", "gpt-4", "beta/*", "*"] } }, entries: { ops: { modelPolicy: { allow: ["gamma/vendor/*", "gamma/ bad"] } } } },
    });
    expect(err.issues.map((i) => i.path)).toEqual(["agents.defaults.modelPolicy.allow[1]", "agents.defaults.modelPolicy.allow[3]", "agents.entries.ops.modelPolicy.allow[1]"]);
    expect(err.issues[0]!.message).toContain('a "provider/model" ref or a "provider/*" prefix');
    expect(validateConfig({ agents: { defaults: { modelPolicy: { allow: ["alpha/a1", "beta/*", "gamma/vendor/*"] } } } }, {}).config.agents.defaults.modelPolicy?.allow).toEqual([
      "alpha/a1",
      "beta/*",
      "gamma/vendor/*",
    ]);
  });

  it("takes skills.entries env and apiKey and skills.load.extraDirs, and refuses an env name a shell could not read", () => {
    const skills = { entries: { gh: { apiKey: "k", env: { GH_HOST: "example.com" } } }, load: { extraDirs: ["~/more-skills"] } };
    expect(validateConfig({ skills }, {}).config.skills).toEqual(skills);
    const err = validationError({ skills: { entries: { gh: { env: { "GH-HOST": "x", "1ST": "y", OK_1: "z" } } } } });
    expect(err.issues).toEqual([
      { path: "skills.entries.gh.env.GH-HOST", message: '"GH-HOST" is not a variable name: letters, digits and _, not starting with a digit (GITHUB_TOKEN)' },
      { path: "skills.entries.gh.env.1ST", message: '"1ST" is not a variable name: letters, digits and _, not starting with a digit (GITHUB_TOKEN)' },
    ]);
  });

  it("refuses exec allowlist and safe-bin entries that could never match a program", () => {
    const err = validationError({ tools: { exec: { security: "allowlist", allowlist: ["git", "git status", "", "*", "npm*", "/usr/bin/*"], safeBins: ["head", "sort -o", ""] } } });
    expect(err.issues).toEqual([
      { path: "tools.exec.allowlist[1]", message: '"git status" is a command line; an entry names one program (git) or an absolute path glob (/usr/bin/*)' },
      { path: "tools.exec.allowlist[2]", message: "an entry must not be empty: name one program (git) or an absolute path glob (/usr/bin/*)" },
      {
        path: "tools.exec.allowlist[3]",
        message: '"*" is a glob without a path, which is matched as a plain name and never matches: use an absolute path glob such as /usr/bin/*',
      },
      {
        path: "tools.exec.allowlist[4]",
        message: '"npm*" is a glob without a path, which is matched as a plain name and never matches: use an absolute path glob such as /usr/bin/*',
      },
      { path: "tools.exec.safeBins[1]", message: '"sort -o" is a command line; a safe bin is one program name (head)' },
      { path: "tools.exec.safeBins[2]", message: "a safe bin must not be empty: name one program (head)" },
    ]);
    expect(validateConfig({ tools: { exec: { allowlist: ["git", "/usr/bin/*", "./scripts/build.sh"], safeBins: ["head", "jq"] } } }, {}).config.tools?.exec?.allowlist).toEqual([
      "git",
      "/usr/bin/*",
      "./scripts/build.sh",
    ]);
  });

  it("rejects a heartbeat activeHours window whose end equals its start (empty), wherever the heartbeat block is", () => {
    const window = (start: string, end: string) => ({ activeHours: { start, end } });
    const err = validationError({ agents: { defaults: { heartbeat: window("09:00", "09:00") }, entries: { ops: { heartbeat: window("00:00", "00:00") } } } });
    expect(err.issues.map((issue) => issue.path)).toEqual(["agents.defaults.heartbeat.activeHours.end", "agents.entries.ops.heartbeat.activeHours.end"]);
    expect(err.message).toMatch(/^agents\.defaults\.heartbeat\.activeHours\.end: equals activeHours\.start, an empty window .*every: "0m"/);
    expect(validateConfig({ agents: { defaults: { heartbeat: window("00:00", "24:00") } } }, {}).config.agents.defaults.heartbeat?.activeHours?.end).toBe("24:00");
  });

  it("refuses an agent id that names no configured agent where config routes chats or hooks to one", () => {
    const err = validationError({
      agents: { entries: { main: {}, work: {} } },
      bindings: [
        { agentId: "work", match: { channel: "slack" } },
        { agentId: "hom", match: { channel: "telegram" } },
        { type: "acp", agentId: "claude", match: { channel: "telegram", peer: { id: "1" } } },
      ],
      channels: {
        telegram: { groups: { "-1": { agentId: "main", topics: { "7": { agentId: "coder" } } } } },
        discord: { accounts: { a: { guilds: { g: { channels: { c: { agentId: "ghost" } } } } } } },
        slack: { channels: { C1: { agentId: "MAIN" } } },
      },
      hooks: { mappings: [{ match: { path: "x" }, action: "agent", agentId: "nobody" }] },
    });
    const known = "known agents: main, work (define it under agents.entries to use it)";
    expect(err.message.split("\n")).toEqual([
      `bindings[1].agentId: unknown agent "hom"; ${known}`,
      `channels.telegram.groups.-1.topics.7.agentId: unknown agent "coder"; ${known}`,
      `channels.discord.accounts.a.guilds.g.channels.c.agentId: unknown agent "ghost"; ${known}`,
      `hooks.mappings[0].agentId: unknown agent "nobody"; ${known}`,
    ]);
    expect(validationError({ bindings: [{ agentId: "work", match: { channel: "slack" } }] }).message).toBe(
      'bindings[0].agentId: unknown agent "work"; known agents: main (define it under agents.entries to use it)',
    );
  });

  it("refuses a channel's defaultAccount that names none of its accounts", () => {
    const err = validationError({
      channels: { telegram: { defaultAccount: "wrok", accounts: { Home: {}, work: {} } }, slack: { defaultAccount: "main" }, discord: { defaultAccount: "DEFAULT" } },
    });
    expect(err.message.split("\n")).toEqual([
      'channels.telegram.defaultAccount: no account "wrok" in channels.telegram.accounts (its accounts: home, work)',
      'channels.slack.defaultAccount: no account "main" in channels.slack.accounts (its accounts: default)',
    ]);
    expect(validateConfig({ channels: { telegram: { defaultAccount: "WORK", accounts: { home: {}, work: {} } } } }, {}).warnings).toEqual([]);
  });

  it("refuses a binding's accountId that names none of its channel's accounts", () => {
    const channels = { telegram: { accounts: { home: {}, work: {} } }, discord: {} };
    const bindings = [
      { agentId: "main", match: { channel: "telegram", accountId: "WORK" } },
      { agentId: "main", match: { channel: "telegram", accountId: "*" } },
      { agentId: "main", match: { channel: "telegram", accountId: "hom" } },
      { agentId: "main", match: { channel: "discord", accountId: "default" } },
      { agentId: "main", match: { channel: "discord", accountId: "bot2" } },
      { agentId: "main", match: { channel: "slack", accountId: "any" } },
    ];
    expect(validationError({ channels, bindings }).message.split("\n")).toEqual([
      'bindings[2].match.accountId: no account "hom" in channels.telegram (its accounts: home, work; "*" is every account)',
      'bindings[4].match.accountId: no account "bot2" in channels.discord (its accounts: default; "*" is every account)',
    ]);
  });

  it("rejects duplicate agent ids and bad entry keys", () => {
    expect(validationError({ agents: { list: [{ id: "a" }, { id: "a" }] } }).message).toBe('agents.list[1].id: duplicate agent id "a"');
    expect(validationError({ agents: { entries: { "Bad Id": {} } } }).message).toMatch(/^agents\.entries\["Bad Id"\]: key must be an agent id/);
    expect(validationError({ agents: { entries: { main: { id: "other" } } } }).message).toBe('agents.entries.main.id: must match its key "main"');
    expect(validationError({ agents: { list: [{ id: "work" }], entries: { work: { name: "Work" } } } }).message).toBe(
      'agents.entries.work: agent "work" is already defined at agents.list[0]; keep one of the two',
    );
  });
});

describe("validateConfig: channel settings", () => {
  const TOKEN = "123:abc_DEF-456";

  it("checks token shapes, URLs and paths without repeating the values", () => {
    const message = validationError({
      channels: {
        telegram: { botToken: "xoxb-not-telegram", apiRoot: "ftp://x", webhookUrl: "https://x.example/hook", webhookSecret: "has spaces" },
        discord: { restApiUrl: "not a url", reconnectWatchdogMs: 0 },
        slack: { mode: "rtm", botToken: "xapp-wrong", appToken: "xoxb-wrong", slackApiUrl: "slack.com", webhookPath: "events" },
      },
    }).message;
    expect(message.split("\n")).toEqual([
      "channels.telegram.botToken: expected a bot token from @BotFather (<digits>:<secret>)",
      "channels.telegram.apiRoot: expected an http(s) URL",
      "channels.telegram.webhookSecret: expected 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)",
      "channels.discord.restApiUrl: expected an http(s) URL",
      "channels.discord.reconnectWatchdogMs: expected integer 100-3600000",
      'channels.slack.mode: expected one of "socket", "http"',
      "channels.slack.botToken: expected the bot token that starts with xoxb- (OAuth & Permissions page of the Slack app)",
      "channels.slack.appToken: expected an app-level token that starts with xapp- (Basic Information → App-Level Tokens)",
      "channels.slack.slackApiUrl: expected an http(s) URL",
      'channels.slack.webhookPath: expected a path starting with "/"',
    ]);
    expect(message).not.toContain("xoxb-not-telegram");
  });

  it("a Telegram webhookUrl needs a webhookSecret, on the block or the account", () => {
    expect(validationError({ channels: { telegram: { botToken: TOKEN, webhookUrl: "https://x.example/hook" } } }).message).toBe(
      "channels.telegram.webhookSecret: required when webhookUrl is set (it is how forged updates are refused)",
    );
    expect(validationError({ channels: { telegram: { accounts: { work: { botToken: TOKEN, webhookUrl: "https://x.example/hook" } } } } }).message).toBe(
      "channels.telegram.accounts.work.webhookSecret: required when webhookUrl is set (it is how forged updates are refused)",
    );
    const ok = validateConfig({ channels: { telegram: { webhookSecret: "s3cret", accounts: { work: { botToken: TOKEN, webhookUrl: "https://x.example/hook" } } } } }, {});
    expect(ok.warnings).toEqual([]);
  });
});

describe("validateConfig: /v1 file settings", () => {
  it("takes OpenClaw's responses.files block and names the types it cannot read", () => {
    const files = {
      allowUrl: true,
      urlAllowlist: ["cdn.example.com"],
      allowedMimes: ["text/plain", "application/pdf", "application/msword"],
      maxBytes: 5242880,
      maxChars: 60000,
      maxRedirects: 3,
      timeoutMs: 10000,
      pdf: { maxPages: 4, maxPixels: 4000000, minTextChars: 200 },
    };
    const { config, warnings } = validateConfig({ gateway: { http: { endpoints: { responses: { enabled: true, maxUrlParts: 4, files } } } } }, {});
    expect(warnings).toEqual([
      "gateway.http.endpoints.responses.files.allowedMimes: application/msword is not read by this gateway (it reads text/plain, text/markdown, text/html, text/csv, application/json, application/pdf); such files are refused",
    ]);
    expect(config.gateway.http.endpoints.responses).toMatchObject({ maxUrlParts: 4, files });
  });
});

describe("validateConfig: /v1 chat completion files", () => {
  it("have no URL settings: their parts carry no URL, so those keys are unknown and say so", () => {
    const { config, warnings } = validateConfig({ gateway: { http: { endpoints: { chatCompletions: { files: { allowUrl: true, maxChars: 10 } } } } } }, {});
    expect(warnings).toEqual(['unknown config key "gateway.http.endpoints.chatCompletions.files.allowUrl" (ignored)']);
    expect(config.gateway.http.endpoints.chatCompletions.files).toEqual({ maxChars: 10 });
  });
});

describe("validateConfig: unknown keys", () => {
  it("knows a Discord channel's roles (and only Discord's: a Telegram group has none)", () => {
    const discord = { guilds: { "1": { roles: ["2"], channels: { "3": { roles: ["4"], users: ["5"] } } } } };
    const { config, warnings } = validateConfig({ channels: { discord, telegram: { groups: { "-1": { roles: ["4"] } } } } }, {});
    expect(warnings).toEqual(['unknown config key "channels.telegram.groups.-1.roles" (ignored)']);
    expect(config.channels?.discord?.guilds?.["1"]?.channels?.["3"]).toEqual({ roles: ["4"], users: ["5"] });
  });

  it("knows typingIntervalSeconds on Telegram and Discord only: Slack has no typing indicator for bots", () => {
    const { config, warnings } = validateConfig(
      {
        channels: {
          telegram: { typingIntervalSeconds: 3 },
          discord: { typingIntervalSeconds: 4 },
          slack: { typingIntervalSeconds: 5, accounts: { work: { typingIntervalSeconds: 1 } } },
        },
      },
      {},
    );
    expect(warnings).toEqual([
      'unknown config key "channels.slack.typingIntervalSeconds" (ignored)',
      'unknown config key "channels.slack.accounts.work.typingIntervalSeconds" (ignored)',
    ]);
    expect(config.channels?.telegram?.typingIntervalSeconds).toBe(3);
    expect(config.channels?.discord?.typingIntervalSeconds).toBe(4);
  });

  it("suggests the known key a typo is closest to", () => {
    const { warnings } = validateConfig({ gateway: { prot: 1 }, agents: { defaults: { modle: "a/b" } }, gatewya: {} }, {});
    expect(warnings).toEqual([
      'unknown config key "gateway.prot" (ignored; did you mean "gateway.port"?)',
      'unknown config key "agents.defaults.modle" (ignored; did you mean "agents.defaults.model"?)',
      'unknown config key "gatewya" (ignored; did you mean "gateway"?)',
    ]);
  });

  it("warns with the full path, keeps loading and drops the key", () => {
    const { config, warnings } = validateConfig({ gateway: { port: 1234, foo: 1, auth: { mode: "token", extra: { deep: true } } }, wizard: { telegram: {} } }, {});
    expect(warnings).toEqual(['unknown config key "gateway.foo" (ignored)', 'unknown config key "gateway.auth.extra" (ignored)', 'unknown config key "wizard" (ignored)']);
    expect(config.gateway.port).toBe(1234);
    expect(config.gateway).not.toHaveProperty("foo");
    expect(config).not.toHaveProperty("wizard");
  });

  it("finds unknown keys inside arrays, records and the object form of a model", () => {
    const { warnings } = validateConfig(
      {
        agents: {
          defaults: { model: { primary: "a/b", typo: 1 } },
          list: [{ id: "main", colour: "red" }],
          entries: { ops: { nmae: "x" } },
        },
        models: { providers: { fake: { models: [{ id: "m", price: 1 }] } } },
      },
      {},
    );
    expect(warnings).toEqual([
      'unknown config key "agents.defaults.model.typo" (ignored)',
      'unknown config key "agents.list[0].colour" (ignored)',
      'unknown config key "agents.entries.ops.nmae" (ignored; did you mean "agents.entries.ops.name"?)',
      'unknown config key "models.providers.fake.models[0].price" (ignored)',
    ]);
  });

  it("accepts a root $schema string and free-form model params", () => {
    const raw = { $schema: "https://example.invalid/schema.json", agents: { defaults: { models: { "a/b": { params: { temperature: 0.2, x: { y: 1 } } } } } } };
    const { config, warnings } = validateConfig(raw, {});
    expect(warnings).toEqual([]);
    expect(config.$schema).toBe(raw.$schema);
    expect(config.agents.defaults.models?.["a/b"]?.params).toEqual({ temperature: 0.2, x: { y: 1 } });
  });

  it("warns about every non-numeric Telegram allow-list entry, naming its key and the fix, and still loads", () => {
    const telegram = {
      allowFrom: ["123", "tg:456", "*", "@alice"],
      groupAllowFrom: ["telegram:bob"],
      groups: { "-100": { allowFrom: ["-100", "@carol"], topics: { "7": { allowFrom: ["@dave"] } } } },
      accounts: { work: { allowFrom: ["@erin"] } },
    };
    const { config, warnings } = validateConfig({ channels: { telegram, discord: { allowFrom: ["@frank"] } } }, {});
    expect(config.channels?.telegram?.allowFrom).toEqual(telegram.allowFrom);
    expect(warnings.map((w) => w.split(" is not")[0])).toEqual([
      "channels.telegram.allowFrom: @alice",
      "channels.telegram.groupAllowFrom: telegram:bob",
      "channels.telegram.groups.-100.allowFrom: @carol",
      "channels.telegram.groups.-100.topics.7.allowFrom: @dave",
      "channels.telegram.accounts.work.allowFrom: @erin",
    ]);
    expect(warnings[0]).toMatch(/admits nobody .*replace it with the sender's numeric user id/);
  });

  it("warns about a chat entry keyed by name (OpenClaw also takes names): chats are matched by id, so it matches no chat", () => {
    const channels = {
      telegram: { groups: { "-100123": { topics: { "7": {}, general: {} } }, "@mygroup": {}, "*": {} } },
      discord: { guilds: { "123": { channels: { "456": {}, "#general": {} } }, "my-server": {} } },
      slack: { channels: { C0GENERAL: {}, "#random": {}, "*": {} }, accounts: { work: { channels: { random: {} } } } },
    };
    const { config, warnings } = validateConfig({ channels }, {});
    expect(config.channels?.slack?.channels).toHaveProperty("#random");
    expect(warnings.map((w) => w.split(":")[0])).toEqual([
      "channels.telegram.groups.-100123.topics.general",
      'channels.telegram.groups["@mygroup"]',
      'channels.discord.guilds.123.channels["#general"]',
      "channels.discord.guilds.my-server",
      'channels.slack.channels["#random"]',
      "channels.slack.accounts.work.channels.random",
    ]);
    expect(warnings[1]).toBe(
      'channels.telegram.groups["@mygroup"]: "@mygroup" is not a Telegram chat id, so this entry matches no chat (chats are matched by id only): key it by the chat\'s id',
    );
  });

  it("treats empty YAML values (null) as unset", () => {
    const { config } = validateConfig({ gateway: { port: null, auth: null }, agents: { entries: { main: null } } }, {});
    expect(config.gateway.port).toBe(18789);
    expect(config.agents.entries).toEqual({ main: {} });
  });

  it("accepts both agents.list and agents.entries and keeps the spelling given", () => {
    const list = validateConfig({ agents: { list: [{ id: "main", default: true, identity: { emoji: "🦞" } }] } }, {}).config;
    expect(list.agents.list).toEqual([{ id: "main", default: true, identity: { emoji: "🦞" } }]);
    expect(list.agents.entries).toBeUndefined();
    const entries = validateConfig({ agents: { entries: { main: { name: "Main", tools: { profile: "coding" } } } } }, {}).config;
    expect(entries.agents.entries).toEqual({ main: { name: "Main", tools: { profile: "coding" } } });
    expect(entries.agents.list).toBeUndefined();
  });
});

describe("validateConfig: session.resetByType and session.resetByChannel", () => {
  it("takes a policy per kind of chat and per channel; OpenClaw's older resetByType.dm is read as direct, with a warning", () => {
    const byType = validateConfig(
      { session: { resetByType: { dm: { mode: "idle", idleMinutes: 60 }, group: { mode: "none" } }, resetByChannel: { slack: { mode: "daily", atHour: 6 } } } },
      {},
    );
    expect(byType.config.session.resetByType).toEqual({ direct: { mode: "idle", idleMinutes: 60 }, group: { mode: "none" } });
    expect(byType.config.session.resetByChannel).toEqual({ slack: { mode: "daily", atHour: 6 } });
    expect(byType.warnings).toEqual(["session.resetByType.dm is the older spelling of session.resetByType.direct: it was read as session.resetByType.direct (rename it)"]);
    const both = validateConfig({ session: { resetByType: { dm: { mode: "none" }, direct: { mode: "daily" } } } }, {});
    expect(both.config.session.resetByType).toEqual({ direct: { mode: "daily" } });
    expect(both.warnings.join("\n")).toContain("which is set too: session.resetByType.dm was ignored (remove it)");
  });

  it("warns that a policy for a channel this gateway does not have never applies, and refuses a bad policy at its key", () => {
    expect(validateConfig({ session: { resetByChannel: { whatsapp: { mode: "idle" } } } }, {}).warnings).toEqual([
      'session.resetByChannel.whatsapp: "whatsapp" is not a channel of this gateway (telegram, discord, slack), so this setting never applies',
    ]);
    expect(validateConfig({ messages: { queue: { byChannel: { telegram: "collect", irc: "steer" }, debounceMsByChannel: { matrix: 100 } } } }, {}).warnings).toEqual([
      'messages.queue.byChannel.irc: "irc" is not a channel of this gateway (telegram, discord, slack), so this setting never applies',
      'messages.queue.debounceMsByChannel.matrix: "matrix" is not a channel of this gateway (telegram, discord, slack), so this setting never applies',
    ]);
    expect(validationError({ messages: { queue: { byChannel: { telegram: "later" } } } }).message).toMatch(/^messages\.queue\.byChannel\.telegram:/);
    expect(validationError({ session: { resetByType: { group: { mode: "weekly" } } } }).message).toMatch(/^session\.resetByType\.group\.mode:/);
  });
});

describe("validateConfig: session.maintenance", () => {
  it("takes mode, pruneAfter and maxEntries, and refuses a pruneAfter of zero or not a duration", () => {
    const maintenance = { mode: "warn", pruneAfter: "7d", maxEntries: 50 };
    expect(validateConfig({ session: { maintenance } }, {}).config.session.maintenance).toEqual(maintenance);
    expect(validationError({ session: { maintenance: { pruneAfter: "0d" } } }).message).toBe(
      "session.maintenance.pruneAfter: must be longer than 0 (it would archive every idle session); use 30d, or a larger maxEntries to keep more",
    );
    expect(validationError({ session: { maintenance: { pruneAfter: "30 days" } } }).message).toMatch(/^session\.maintenance\.pruneAfter: expected a duration such as 30d/);
  });

  it("takes resetArchiveRetention, maxDiskBytes and highWaterBytes; refuses a size it cannot read and a high-water mark above the budget", () => {
    const maintenance = { resetArchiveRetention: "30d", maxDiskBytes: "1.5gb", highWaterBytes: 1_000_000 };
    expect(validateConfig({ session: { maintenance } }, {}).config.session.maintenance).toEqual(maintenance);
    expect(validateConfig({ session: { maintenance: { resetArchiveRetention: false, maxDiskBytes: false } } }, {}).config.session.maintenance).toBeDefined();
    expect(validationError({ session: { maintenance: { maxDiskBytes: "lots" } } }).message).toContain("session.maintenance.maxDiskBytes");
    expect(validationError({ session: { maintenance: { maxDiskBytes: "500mb", highWaterBytes: "1gb" } } }).message).toBe(
      "session.maintenance.highWaterBytes: 1 GiB is above maxDiskBytes (500 MiB): it is where a cleanup stops, so set it lower, or raise maxDiskBytes",
    );
    expect(validationError({ session: { maintenance: { highWaterBytes: "11gb" } } }).message).toContain("above maxDiskBytes (10 GiB, the default)");
  });
});

describe("validateConfig: session.idleMinutes, OpenClaw's older spelling", () => {
  it("is read as session.reset.idleMinutes: an idle reset alone, or joined to the reset block, with a warning", () => {
    const alone = validateConfig({ session: { idleMinutes: 30 } }, {});
    expect(alone.config.session.reset).toEqual({ mode: "idle", idleMinutes: 30 });
    expect(alone.warnings.join("\n")).toContain("session.idleMinutes is the older spelling of session.reset.idleMinutes: it was read as");
    expect(alone.warnings.join("\n")).not.toContain("unknown config key");
    expect(validateConfig({ session: { idleMinutes: 30, reset: { mode: "daily", atHour: 5 } } }, {}).config.session.reset).toEqual({ mode: "daily", atHour: 5, idleMinutes: 30 });
  });

  it("is ignored, with a warning saying so, when session.reset.idleMinutes is set too", () => {
    const both = validateConfig({ session: { idleMinutes: 30, reset: { mode: "idle", idleMinutes: 90 } } }, {});
    expect(both.config.session.reset).toEqual({ mode: "idle", idleMinutes: 90 });
    expect(both.warnings.join("\n")).toContain("which is set too: session.idleMinutes was ignored (remove it)");
  });
});

describe("validateConfig: cron.webhookAllowPrivateNetwork, the older spelling", () => {
  it("is read as cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork, beside the policy's other keys, unless that is set too", () => {
    const moved = validateConfig({ cron: { webhookAllowPrivateNetwork: true, webhookSsrfPolicy: { allowedHostnames: ["a.lan"] } } }, {});
    expect(moved.config.cron?.webhookSsrfPolicy).toEqual({ allowedHostnames: ["a.lan"], dangerouslyAllowPrivateNetwork: true });
    expect(moved.warnings).toContain(
      "cron.webhookAllowPrivateNetwork is the older spelling of cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork: it was read as that key (move it there)",
    );
    const both = validateConfig({ cron: { webhookAllowPrivateNetwork: true, webhookSsrfPolicy: { dangerouslyAllowPrivateNetwork: false } } }, {});
    expect(both.config.cron?.webhookSsrfPolicy).toEqual({ dangerouslyAllowPrivateNetwork: false });
    expect(both.warnings.join("\n")).toContain("which is set too: cron.webhookAllowPrivateNetwork was ignored (remove it)");
  });
});

describe("tools.exec.mode", () => {
  it("stands for the security and ask pair; a pair the file also sets that disagrees is overruled with a warning; auto is refused", () => {
    const exec = (settings: Record<string, unknown>) => validateConfig({ tools: { exec: settings } }, {});
    expect(exec({ mode: "ask" }).config.tools?.exec).toMatchObject({ security: "allowlist", ask: "on-miss" });
    expect(exec({ mode: "deny" }).config.tools?.exec).toMatchObject({ security: "deny", ask: "off" });
    expect(exec({ mode: "full" }).config.tools?.exec).toMatchObject({ security: "full", ask: "off" });
    const overruled = exec({ mode: "allowlist", security: "full", ask: "off" });
    expect(overruled.config.tools?.exec).toMatchObject({ security: "allowlist", ask: "off" });
    expect(overruled.warnings).toEqual(['tools.exec.security "full" is overruled by tools.exec.mode "allowlist" (security "allowlist")']);
    expect(() => exec({ mode: "auto" })).toThrow('tools.exec.mode: "auto" (a model reviewing commands before asking you) is not supported by this gateway; use "ask"');
  });
});

describe("humanDelay", () => {
  it("a custom range whose maxMs is below its minMs is refused at its key, for the defaults and an agent", () => {
    expect(() => validateConfig({ agents: { defaults: { humanDelay: { mode: "custom", minMs: 900, maxMs: 300 } } } }, {})).toThrow(
      "agents.defaults.humanDelay.maxMs: must be at least minMs (900)",
    );
    expect(() => validateConfig({ agents: { entries: { calm: { humanDelay: { mode: "custom", minMs: 2, maxMs: 1 } } } } }, {})).toThrow("agents.entries.calm.humanDelay.maxMs");
    expect(() => validateConfig({ agents: { list: [{ id: "calm", humanDelay: { mode: "custom", minMs: 2, maxMs: 1 } }] } }, {})).toThrow("agents.list[0].humanDelay.maxMs");
    expect(validateConfig({ agents: { defaults: { humanDelay: { mode: "custom", minMs: 300, maxMs: 300 } } } }, {}).config.agents.defaults.humanDelay).toEqual({
      mode: "custom",
      minMs: 300,
      maxMs: 300,
    });
  });
});

describe("gateway.trustedProxies", () => {
  it("takes addresses and CIDR ranges, and refuses anything else at its index", () => {
    expect(validateConfig({ gateway: { trustedProxies: ["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"] } }, {}).config.gateway?.trustedProxies).toHaveLength(4);
    expect(() => validateConfig({ gateway: { trustedProxies: ["127.0.0.1", "proxy.local"] } }, {})).toThrow(
      'gateway.trustedProxies[1]: "proxy.local" is not an IP address or CIDR range (127.0.0.1, 10.0.0.0/8, ::1)',
    );
    expect(() => validateConfig({ gateway: { trustedProxies: ["10.0.0.0/33"] } }, {})).toThrow("gateway.trustedProxies[0]");
  });
});

describe("OpenClaw's older streaming spellings and retired keys", () => {
  it("a channel's and an account's flat streaming keys are read under streaming, a nested value winning, each with a warning", () => {
    const { config, warnings } = validateConfig(
      {
        channels: {
          telegram: { botToken: "1:a", streamMode: "partial", chunkMode: "newline", blockStreaming: true, accounts: { ops: { botToken: "2:b", streaming: false } } },
          discord: { token: "d", streaming: { mode: "off" }, streamMode: "partial", blockStreamingCoalesce: { idleMs: 0 } },
        },
        messages: { suppressToolErrors: true },
      },
      {},
    );
    expect(config.channels?.telegram?.streaming).toEqual({ mode: "partial", chunkMode: "newline", block: { enabled: true } });
    expect(config.channels?.telegram?.accounts?.ops?.streaming).toEqual({ mode: "off" });
    expect(config.channels?.discord?.streaming).toEqual({ mode: "off", block: { coalesce: { idleMs: 0 } } });
    expect(warnings).toContain(
      "channels.telegram.streamMode is the older spelling of channels.telegram.streaming.mode: it was read as channels.telegram.streaming.mode (move it there)",
    );
    expect(warnings).toContain(
      "channels.telegram.accounts.ops.streaming is the older spelling of channels.telegram.accounts.ops.streaming.mode: it was read as channels.telegram.accounts.ops.streaming.mode (move it there)",
    );
    expect(warnings).toContain(
      "channels.discord.streamMode is the older spelling of channels.discord.streaming.mode, which is set too: channels.discord.streamMode was ignored (remove it)",
    );
    expect(warnings).toContain(
      "messages.suppressToolErrors was ignored: it is retired, as in OpenClaw: no separate tool-failure warnings are posted to chats (only /verbose shows tool calls) (remove it)",
    );
    expect(config.messages).not.toHaveProperty("suppressToolErrors");
  });
});

describe("agents.defaults.userTimezone", () => {
  it("takes an IANA zone and refuses one Node does not know; heartbeat windows also take user and local", () => {
    expect(
      validateConfig({ agents: { defaults: { userTimezone: "America/Chicago", heartbeat: { activeHours: { start: "09:00", end: "18:00", timezone: "local" } } } } }, {}).config
        .agents.defaults.userTimezone,
    ).toBe("America/Chicago");
    expect(() => validateConfig({ agents: { defaults: { heartbeat: { activeHours: { start: "09:00", end: "18:00", timezone: "user" } } } } }, {})).not.toThrow();
    expect(() => validateConfig({ agents: { defaults: { userTimezone: "Mars/Olympus" } } }, {})).toThrow(
      /agents\.defaults\.userTimezone: "Mars\/Olympus" is not a time zone Node knows/,
    );
  });
});

describe("validateConfig: channels.discord.mentionAliases", () => {
  it("takes handles without the @ and Discord user ids; refuses an @, a bad id, and everyone/here", () => {
    const aliases = { SupportLead: "123456789012345678", "ops.lead": "234567890123456789" };
    expect(validateConfig({ channels: { discord: { token: "t", mentionAliases: aliases } } }, {}).config.channels?.discord?.mentionAliases).toEqual(aliases);
    expect(validationError({ channels: { discord: { token: "t", mentionAliases: { "@Lead": "123456789012345678" } } } }).message).toBe(
      'channels.discord.mentionAliases["@Lead"]: "@Lead" is not a handle: write it without the @, in letters, digits, _ . - (at most 32)',
    );
    expect(validationError({ channels: { discord: { token: "t", mentionAliases: { Lead: "12" } } } }).message).toContain("expected a Discord user id");
    expect(validationError({ channels: { discord: { token: "t", accounts: { ops: { mentionAliases: { Here: "123456789012345678" } } } } } }).message).toContain(
      "@Here pings everyone and cannot be an alias",
    );
  });
});

describe("validateConfig: acp.backend, acp.dispatch and the stream modes", () => {
  it("takes the built-in acpx backend and refuses another with why; takes the dispatch switch and stream modes", () => {
    const config = validateConfig({ acp: { backend: "acpx", dispatch: { enabled: false }, stream: { repeatSuppression: false, deliveryMode: "final_only" } } }, {}).config;
    expect(config.acp).toMatchObject({ backend: "acpx", dispatch: { enabled: false }, stream: { repeatSuppression: false, deliveryMode: "final_only" } });
    expect(validationError({ acp: { backend: "acpx-secondary" } }).message).toContain(
      'acp.backend: expected "acpx" (the built-in ACP runtime; no other backend is available here)',
    );
    expect(validationError({ acp: { stream: { deliveryMode: "batch" } } }).message).toContain("acp.stream.deliveryMode");
  });
});

describe("validateConfig: gateway.tls and gateway.remote.tlsFingerprint", () => {
  it("takes the TLS keys and a fingerprint in either form; refuses a fingerprint that is not SHA-256", () => {
    const fingerprint = "97:0C:93:77:69:5F:89:E4:AE:DB:32:FA:1D:8F:FE:E4:9C:72:0B:90:F2:C2:E4:5D:95:2B:F5:D1:65:A1:67:B3";
    const config = validateConfig(
      { gateway: { tls: { enabled: true, autoGenerate: false, certPath: "~/c.pem", keyPath: "~/k.pem" }, remote: { tlsFingerprint: fingerprint } } },
      {},
    ).config;
    expect(config.gateway.tls).toEqual({ enabled: true, autoGenerate: false, certPath: "~/c.pem", keyPath: "~/k.pem" });
    expect(() => validateConfig({ gateway: { remote: { tlsFingerprint: `sha256:${fingerprint.replaceAll(":", "").toLowerCase()}` } } }, {})).not.toThrow();
    expect(validationError({ gateway: { remote: { tlsFingerprint: "AB:CD" } } }).message).toContain("gateway.remote.tlsFingerprint: expected a SHA-256 certificate fingerprint");
  });
});

describe("validateConfig: agents.defaults.heartbeat.agentId", () => {
  it("must name an agent the config defines", () => {
    expect(() => validateConfig({ agents: { defaults: { heartbeat: { agentId: "ops" } }, entries: { main: {}, ops: {} } } }, {})).not.toThrow();
    expect(validationError({ agents: { defaults: { heartbeat: { agentId: "opz" } }, entries: { main: {}, ops: {} } } }).message).toBe(
      'agents.defaults.heartbeat.agentId: unknown agent "opz"; known agents: main, ops (define it under agents.entries to use it)',
    );
  });
});

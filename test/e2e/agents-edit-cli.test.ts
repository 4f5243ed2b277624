import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir } from "../helpers/gateway-process.js";
import { KEYS, startPtyCli } from "../helpers/pty-session.js";

/**
 * `openclaw agents add|delete|bindings|bind|unbind|set-identity`: OpenClaw's agent commands on the
 * local config file, run as the built CLI in a temp state dir, with no gateway. Each edit goes
 * through the validated, atomic config writer: every refusal leaves the file byte for byte as it
 * was (and creates no workspace).
 */

/** The built CLI with stdout and stderr kept apart; stdin is not a terminal. */
function cli(args: string[], env: Record<string, string>, cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: cleanEnv(env), timeout: 20_000, ...(cwd ? { cwd } : {}) }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const provider = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-box", api: "openai-completions", models: [{ id: "small" }, { id: "big" }] };

interface State {
  stateDir: string;
  file: string;
  env: Record<string, string>;
  read: () => any;
  bytes: () => string;
}

/** A state dir whose config file is `config` (JSON, or the text given as is; a function is given the state dir). */
function stateWith(config: unknown, name = "openclaw.json"): State {
  const stateDir = makeTempDir("openclaw-agents-edit-");
  const file = path.join(stateDir, name);
  const content = typeof config === "function" ? config(stateDir) : config;
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return { stateDir, file, env: { OPENCLAW_STATE_DIR: stateDir }, read: () => JSON.parse(fs.readFileSync(file, "utf8")), bytes: () => fs.readFileSync(file, "utf8") };
}

/** One Telegram bot with two accounts (`default` and `ops`) and one Discord bot, the `box` provider, and the agents given. */
function baseConfig(agents: Record<string, unknown> = {}, bindings?: unknown[]): Record<string, any> {
  return {
    agents: { defaults: { model: "box/small" }, ...agents },
    models: { providers: { box: provider } },
    channels: { telegram: { accounts: { default: { botToken: "1:a" }, ops: { botToken: "2:b" } } }, discord: { token: "discord-token" } },
    ...(bindings ? { bindings } : {}),
  };
}

/** `main` (the default) and `work`, whose workspace is `<state>/ws-work`. */
function twoAgents(bindings?: unknown[], more: Record<string, unknown> = {}) {
  return (stateDir: string) => ({ ...baseConfig({ entries: { main: { default: true }, work: { workspace: path.join(stateDir, "ws-work") } } }, bindings), ...more });
}

const SEEDED = "AGENTS.md, SOUL.md, TOOLS.md, IDENTITY.md, USER.md, HEARTBEAT.md, BOOTSTRAP.md, MEMORY.md";

describe("openclaw agents add", () => {
  it("adds agents.entries.<id> with its workspace (seeded), model and bindings; the implicit main is written first so it stays the default", async () => {
    const state = stateWith(baseConfig());
    const workspace = path.join(state.stateDir, "ws-work");
    const added = await cli(["agents", "add", "Work", "--workspace", workspace, "--model", "box/big", "--bind", "telegram", "--bind", "discord:*"], state.env);
    expect(added).toEqual({
      code: 0,
      stdout: [
        `Updated config: ${state.file}`,
        "The implicit default agent is now written as agents.entries.main (default: true), so it stays the default.",
        "Agent: work",
        "Name: Work",
        `Workspace: ${workspace} (seeded ${SEEDED})`,
        "Model: box/big",
        "Added bindings:",
        "- telegram",
        "- discord accountId=*",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(state.read().agents.entries).toEqual({ main: { default: true }, work: { name: "Work", workspace, model: "box/big" } });
    expect(state.read().bindings).toEqual([
      { agentId: "work", match: { channel: "telegram" } },
      { agentId: "work", match: { channel: "discord", accountId: "*" } },
    ]);
    expect(fs.readdirSync(workspace).sort()).toEqual([...SEEDED.split(", "), "memory"].sort());

    // --json: one summary on stdout; an existing workspace keeps its files and gets the missing ones.
    const opsWorkspace = path.join(state.stateDir, "ws-ops");
    fs.mkdirSync(opsWorkspace);
    fs.writeFileSync(path.join(opsWorkspace, "AGENTS.md"), "mine\n");
    const json = await cli(["agents", "add", "ops", "--workspace", opsWorkspace, "--bind", "telegram:ops", "--json"], state.env);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toEqual({
      agentId: "ops",
      name: "ops",
      workspace: opsWorkspace,
      seededFiles: ["SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "MEMORY.md"],
      bindings: { added: ["telegram accountId=ops"], updated: [], skipped: [], conflicts: [] },
      runningGateway: "none",
      warnings: [],
    });
    expect(fs.readFileSync(path.join(opsWorkspace, "AGENTS.md"), "utf8")).toBe("mine\n");
    expect(state.read().agents.entries.ops).toEqual({ workspace: opsWorkspace });

    const listed = JSON.parse((await cli(["agents", "list", "--json"], state.env)).stdout);
    expect(listed.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      ["main", true],
      ["work", false],
      ["ops", false],
    ]);
  });

  it("refuses an existing id, an invalid id, a bad model, an unknown channel or account, a shared workspace and OpenClaw-only flags, changing nothing", async () => {
    const state = stateWith(twoAgents());
    const before = state.bytes();
    const workspace = path.join(state.stateDir, "ws-new");
    const refusals: [string[], string][] = [
      [["work"], 'openclaw: Agent "work" already exists.\n'],
      [["WORK"], 'openclaw: Agent "work" already exists.\n'],
      [["my agent"], 'openclaw: "my agent" is not a valid agent id: it must be an agent id: 1-64 of a-z, 0-9, _ or -, starting with a letter or digit.\n'],
      [
        ["new", "--model", "nope/m1"],
        'openclaw: Unknown model provider "nope" (model nope/m1): add it under models.providers.nope (baseUrl, api, apiKey) or pick a known provider (configured providers: box; built in: anthropic, openai, ollama). Config was not changed.\n',
      ],
      [
        ["new", "--bind", "whatsapp", "--bind", "telegram:"],
        [
          'openclaw: --bind "whatsapp": unknown channel "whatsapp" (this gateway\'s channels: telegram, discord, slack)',
          '--bind "telegram:": no account after ":" (telegram:<accountId> for one account, telegram:* for every account, telegram for the account named "default")',
          "Config was not changed.",
          "",
        ].join("\n"),
      ],
      [
        ["new", "--bind", "telegram:sales"],
        'openclaw: not saved: bindings[0].match.accountId: no account "sales" in channels.telegram (its accounts: default, ops; "*" is every account)\nConfig was not changed.\n',
      ],
    ];
    for (const [args, stderr] of refusals) {
      const result = await cli(["agents", "add", ...args, "--workspace", workspace], state.env);
      expect({ args, ...result }).toEqual({ args, code: 1, stdout: "", stderr });
    }
    const shared = await cli(["agents", "add", "new", "--workspace", path.join(state.stateDir, "workspace")], state.env);
    expect(shared.stderr).toBe(
      `openclaw: ${path.join(state.stateDir, "workspace")} is already agent "main"'s workspace; agents sharing one would share its memory and persona: choose another directory.\n`,
    );
    const role = await cli(["agents", "add", "new", "--workspace", workspace, "--role", "researcher"], state.env);
    expect(role.stderr).toBe("openclaw: --role is not supported: this gateway has no role templates. Add the agent with --workspace and write its AGENTS.md and SOUL.md there.\n");
    const agentDir = await cli(["agents", "add", "new", "--workspace", workspace, "--agent-dir", "/tmp/x"], state.env);
    expect(agentDir.stderr).toContain("openclaw: --agent-dir is not supported");
    const team = await cli(["agents", "team", "create", "--non-interactive"], state.env);
    expect(team).toEqual({ code: 1, stdout: "", stderr: expect.stringContaining("openclaw: agents team is not supported") });
    const json = await cli(["agents", "add", "work", "--workspace", workspace, "--json"], state.env);
    expect({ code: json.code, out: JSON.parse(json.stdout) }).toEqual({ code: 1, out: { ok: false, error: { type: "cli_error", message: 'Agent "work" already exists.' } } });

    expect(state.bytes()).toBe(before);
    expect(fs.existsSync(workspace)).toBe(false);
  });

  it("without a terminal it needs a name and --workspace; --non-interactive needs them on a terminal too", async () => {
    const state = stateWith(baseConfig());
    const before = state.bytes();
    expect(await cli(["agents", "add", "work"], state.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: "openclaw: agents add needs --workspace <dir> without a terminal to ask on: openclaw agents add <name> --workspace <dir>\n",
    });
    expect((await cli(["agents", "add", "--workspace", "/tmp/w"], state.env)).stderr).toBe(
      "openclaw: agents add needs a name without asking (--non-interactive, --workspace, --model or --bind given): openclaw agents add <name> --workspace <dir>\n",
    );
    const pty = startPtyCli(["agents", "add", "work", "--non-interactive"], state.env);
    await pty.waitFor("agents add needs --workspace <dir> without asking");
    expect(await pty.exited).toBe(1);
    expect(state.bytes()).toBe(before);
  });

  it("on a terminal it asks for the workspace, offering <state>/workspace-<id>", async () => {
    const state = stateWith(baseConfig());
    const pty = startPtyCli(["agents", "add", "research"], state.env);
    await pty.waitFor("Workspace directory");
    await pty.waitFor(path.join(state.stateDir, "workspace-research"));
    pty.send(KEYS.enter);
    await pty.waitFor("Agent: research");
    expect(await pty.exited).toBe(0);
    expect(state.read().agents.entries.research).toEqual({ workspace: path.join(state.stateDir, "workspace-research") });
    expect(fs.existsSync(path.join(state.stateDir, "workspace-research", "AGENTS.md"))).toBe(true);
  });
});

describe("openclaw agents bindings / bind / unbind", () => {
  it("bind follows OpenClaw's scope rules: bare channel = the default account, channel:* every account, an account-less binding upgraded in place, no duplicates", async () => {
    const state = stateWith(twoAgents());
    // Without --agent: the default agent.
    const bare = await cli(["agents", "bind", "--bind", "telegram"], state.env);
    expect(bare).toEqual({ code: 0, stdout: `Updated config: ${state.file}\nAdded bindings:\n- telegram\n`, stderr: "" });
    expect(state.read().bindings).toEqual([{ agentId: "main", match: { channel: "telegram" } }]);

    // The same chats again (telegram:default is what bare telegram covers): nothing written.
    const before = state.bytes();
    const again = await cli(["agents", "bind", "--agent", "main", "--bind", "telegram:default", "--bind", "TELEGRAM"], state.env);
    expect(again).toEqual({ code: 0, stdout: "No new bindings added.\nAlready present:\n- telegram accountId=default\n- telegram\n", stderr: "" });
    expect(state.bytes()).toBe(before);

    // An account named later scopes the account-less binding to it, in place.
    const upgraded = await cli(["agents", "bind", "--bind", "telegram:ops", "--json"], state.env);
    expect(JSON.parse(upgraded.stdout)).toEqual({
      agentId: "main",
      added: [],
      updated: ["telegram accountId=ops"],
      skipped: [],
      conflicts: [],
      runningGateway: "none",
      warnings: [],
    });
    expect(state.read().bindings).toEqual([{ agentId: "main", match: { channel: "telegram", accountId: "ops" } }]);

    const wide = await cli(["agents", "bind", "--agent", "Work", "--bind", "discord:*", "--bind", "telegram"], state.env);
    expect(wide.stdout).toBe(`Updated config: ${state.file}\nAdded bindings:\n- discord accountId=*\n- telegram\n`);
    expect(state.read().bindings).toEqual([
      { agentId: "main", match: { channel: "telegram", accountId: "ops" } },
      { agentId: "work", match: { channel: "discord", accountId: "*" } },
      { agentId: "work", match: { channel: "telegram" } },
    ]);
  });

  it("a binding another agent has is not taken: named on stderr, exit 1, the others still added", async () => {
    const state = stateWith(twoAgents([{ agentId: "main", match: { channel: "telegram", accountId: "ops" } }]));
    const result = await cli(["agents", "bind", "--agent", "work", "--bind", "telegram:ops", "--bind", "discord"], state.env);
    expect(result).toEqual({
      code: 1,
      stdout: `Updated config: ${state.file}\nAdded bindings:\n- discord\n`,
      stderr: "Skipped bindings already claimed by another agent:\n- telegram accountId=ops (agent=main)\n",
    });
    const json = await cli(["agents", "bind", "--agent", "work", "--bind", "telegram:ops", "--json"], state.env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ agentId: "work", added: [], updated: [], skipped: [], conflicts: ["telegram accountId=ops (agent=main)"], warnings: [] });
  });

  it("bindings lists the route bindings (all, or one agent's) in text and JSON; ACP bindings are not among them", async () => {
    const bindings = [
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100123" } } },
      { agentId: "main", match: { channel: "discord" } },
      { type: "acp", agentId: "codex", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
    ];
    const state = stateWith(twoAgents(bindings, { acp: { agents: { codex: { command: "codex-acp" } } } }));
    expect(await cli(["agents", "bindings"], state.env)).toEqual({
      code: 0,
      stdout: "Routing bindings:\n- work <- telegram peer=group:-100123\n- main <- discord\n",
      stderr: "",
    });
    expect(JSON.parse((await cli(["agents", "bindings", "--agent", "work", "--json"], state.env)).stdout)).toEqual([
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100123" } }, description: "telegram peer=group:-100123" },
    ]);
    const none = stateWith(twoAgents());
    expect((await cli(["agents", "bindings"], none.env)).stdout).toBe("No routing bindings.\n");
    expect((await cli(["agents", "bindings", "--agent", "work"], none.env)).stdout).toBe('No routing bindings for agent "work".\n');
    expect(JSON.parse((await cli(["agents", "bindings", "--json"], none.env)).stdout)).toEqual([]);
  });

  it("unbind removes the agent's matching bindings, or all of them with --all; another agent's stay (exit 1)", async () => {
    const bindings = [
      { agentId: "work", match: { channel: "telegram" } },
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100123" } } },
      { agentId: "main", match: { channel: "discord", accountId: "*" } },
      { agentId: "work", match: { channel: "telegram", accountId: "ops" } },
    ];
    const state = stateWith(twoAgents(bindings));
    const some = await cli(["agents", "unbind", "--agent", "work", "--bind", "telegram:default", "--bind", "slack"], state.env);
    expect(some).toEqual({ code: 0, stdout: `Updated config: ${state.file}\nRemoved bindings:\n- telegram\nNot found:\n- slack\n`, stderr: "" });
    const theirs = await cli(["agents", "unbind", "--agent", "work", "--bind", "discord:*"], state.env);
    expect(theirs).toEqual({ code: 1, stdout: "No bindings removed.\n", stderr: "Bindings another agent has (kept):\n- discord accountId=* (agent=main)\n" });
    const all = await cli(["agents", "unbind", "--agent", "work", "--all", "--json"], state.env);
    expect(JSON.parse(all.stdout)).toEqual({
      agentId: "work",
      removed: ["telegram peer=group:-100123", "telegram accountId=ops"],
      missing: [],
      conflicts: [],
      runningGateway: "none",
      warnings: [],
    });
    expect(state.read().bindings).toEqual([{ agentId: "main", match: { channel: "discord", accountId: "*" } }]);
    expect((await cli(["agents", "unbind", "--agent", "work", "--all"], state.env)).stdout).toBe('No bindings to remove for agent "work".\n');
    // The last binding gone, the key goes too.
    expect((await cli(["agents", "unbind", "--all"], state.env)).code).toBe(0);
    expect(state.read().bindings).toBeUndefined();
  });

  it("refuses --all with --bind, neither of them, and an unknown agent, changing nothing", async () => {
    const state = stateWith(twoAgents([{ agentId: "work", match: { channel: "telegram" } }]));
    const before = state.bytes();
    expect(await cli(["agents", "unbind", "--agent", "work", "--all", "--bind", "telegram"], state.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: "openclaw: Use either --all or --bind, not both.\n",
    });
    expect((await cli(["agents", "unbind", "--agent", "work"], state.env)).stderr).toBe("openclaw: Provide at least one --bind <channel[:accountId]> or use --all.\n");
    expect((await cli(["agents", "bind", "--agent", "work"], state.env)).stderr).toBe("openclaw: Provide at least one --bind <channel[:accountId]>.\n");
    for (const args of [
      ["bind", "--agent", "nope", "--bind", "telegram"],
      ["unbind", "--agent", "nope", "--all"],
      ["bindings", "--agent", "nope"],
    ]) {
      expect(await cli(["agents", ...args], state.env)).toEqual({
        code: 1,
        stdout: "",
        stderr: 'openclaw: Agent "nope" not found (configured agents: main, work; openclaw agents list shows them).\n',
      });
    }
    const json = await cli(["agents", "unbind", "--all", "--bind", "telegram", "--json"], state.env);
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, error: { type: "cli_error", message: "Use either --all or --bind, not both." } });
    expect(state.bytes()).toBe(before);
  });
});

describe("openclaw agents delete", () => {
  it("--force removes the entry and its route bindings, keeps and lists its files; --json says the same", async () => {
    const state = stateWith((stateDir: string) => {
      const config = twoAgents([
        { agentId: "work", match: { channel: "telegram", accountId: "ops" } },
        { agentId: "main", match: { channel: "discord" } },
      ])(stateDir);
      return { ...config, agents: { ...config.agents, entries: { ...config.agents.entries, ops: {} } } };
    });
    fs.mkdirSync(path.join(state.stateDir, "ws-work"));
    fs.mkdirSync(path.join(state.stateDir, "agents", "work", "sessions"), { recursive: true });

    const deleted = await cli(["agents", "delete", "Work", "--force"], state.env);
    expect(deleted).toEqual({
      code: 0,
      stdout: [
        `Updated config: ${state.file}`,
        "Deleted agent: work",
        "Removed bindings:",
        "- telegram accountId=ops",
        "Files kept (this command deletes none; remove them when no longer needed):",
        `- ${path.join(state.stateDir, "ws-work")}`,
        `- ${path.join(state.stateDir, "agents", "work")}`,
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(Object.keys(state.read().agents.entries)).toEqual(["main", "ops"]);
    expect(state.read().bindings).toEqual([{ agentId: "main", match: { channel: "discord" } }]);
    expect(fs.existsSync(path.join(state.stateDir, "ws-work"))).toBe(true);

    const json = await cli(["agents", "delete", "ops", "--force", "--json"], state.env);
    expect(JSON.parse(json.stdout)).toEqual({ agentId: "ops", removedBindings: [], defaultAgent: "main", keptFiles: [], runningGateway: "none", warnings: [] });
  });

  it("deleting the default agent names the new one, and keeps that agent's workspace where it was", async () => {
    const state = stateWith(baseConfig({ list: [{ id: "main", default: true }, { id: "ops" }] }));
    const deleted = await cli(["agents", "delete", "main", "--force"], state.env);
    expect(deleted.stdout).toBe(
      [
        `Updated config: ${state.file}`,
        "Deleted agent: main",
        "Default agent is now: ops",
        `Agent "ops" keeps its workspace ${path.join(state.stateDir, "workspace-ops")}, now written in its entry: as the default agent it would otherwise move to the default workspace.`,
        "",
      ].join("\n"),
    );
    expect(state.read().agents.list).toEqual([{ id: "ops", workspace: path.join(state.stateDir, "workspace-ops") }]);
  });

  it("refuses the only agent, an unknown one, one still named by other keys, and (off a terminal) no --force, changing nothing", async () => {
    const only = stateWith(baseConfig());
    expect(await cli(["agents", "delete", "main", "--force"], only.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: 'openclaw: Agent "main" is the only agent and cannot be deleted.\n',
    });

    const state = stateWith((stateDir: string) => {
      const config = twoAgents([{ agentId: "work", match: { channel: "discord" } }], {
        hooks: { enabled: true, token: "hook-token-123456", mappings: [{ match: { path: "ci" }, agentId: "work", action: "agent" }] },
      })(stateDir);
      (config.channels.telegram as Record<string, unknown>).groups = { "-100123": { agentId: "work" } };
      return config;
    });
    const before = state.bytes();
    expect((await cli(["agents", "delete", "nope", "--force"], state.env)).stderr).toBe(
      'openclaw: Agent "nope" not found (configured agents: main, work; openclaw agents list shows them).\n',
    );
    expect((await cli(["agents", "delete", "work", "--force"], state.env)).stderr).toBe(
      'openclaw: Agent "work" is still named by channels.telegram.groups.-100123.agentId, hooks.mappings[0].agentId: point those keys at another agent or remove them (openclaw config set / unset), then delete again. Config was not changed.\n',
    );
    const unforced = stateWith(twoAgents());
    const unforcedBefore = unforced.bytes();
    expect(await cli(["agents", "delete", "work"], unforced.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: "openclaw: Deleting an agent needs confirmation: without a terminal, pass --force (openclaw agents delete work --force). Config was not changed.\n",
    });
    expect(JSON.parse((await cli(["agents", "delete", "work", "--json"], unforced.env)).stdout).error.message).toContain("needs confirmation");
    expect(state.bytes()).toBe(before);
    expect(unforced.bytes()).toBe(unforcedBefore);
  });

  it("on a terminal it asks first: no cancels, yes deletes", async () => {
    const state = stateWith(twoAgents([{ agentId: "work", match: { channel: "discord" } }]));
    const before = state.bytes();
    const declined = startPtyCli(["agents", "delete", "work"], state.env);
    await declined.waitFor('Delete agent "work" and its 1 routing binding from the config? Its files are kept.');
    declined.send(`n${KEYS.enter}`);
    await declined.waitFor("Cancelled; nothing was changed.");
    expect(await declined.exited).toBe(0);
    expect(state.bytes()).toBe(before);

    const accepted = startPtyCli(["agents", "delete", "work"], state.env);
    await accepted.waitFor('Delete agent "work"');
    accepted.send(`y${KEYS.enter}`);
    await accepted.waitFor("Deleted agent: work");
    expect(await accepted.exited).toBe(0);
    expect(Object.keys(state.read().agents.entries)).toEqual(["main"]);
  });
});

describe("openclaw agents set-identity", () => {
  it("writes name, emoji and avatar from flags, keeping the fields not given", async () => {
    const state = stateWith(twoAgents());
    const config = state.read();
    config.agents.entries.work.identity = { emoji: "🛠️" };
    fs.writeFileSync(state.file, JSON.stringify(config));
    const result = await cli(["agents", "set-identity", "--agent", "work", "--name", "Work  Bot", "--avatar", "avatars/work.png"], state.env);
    expect(result).toEqual({
      code: 0,
      stdout: [
        `Updated config: ${state.file}`,
        "Agent: work",
        "Name: Work Bot",
        "Emoji: 🛠️",
        "Avatar: avatars/work.png",
        `Workspace: ${config.agents.entries.work.workspace}`,
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(state.read().agents.entries.work.identity).toEqual({ emoji: "🛠️", name: "Work Bot", avatar: "avatars/work.png" });
    const again = await cli(["agents", "set-identity", "--agent", "work", "--name", "Work Bot", "--json"], state.env);
    expect(JSON.parse(again.stdout)).toEqual({
      agentId: "work",
      identity: { emoji: "🛠️", name: "Work Bot", avatar: "avatars/work.png" },
      changed: false,
      workspace: null,
      storedWorkspace: config.agents.entries.work.workspace,
      identityFile: null,
      warnings: [],
    });
  });

  it("reads IDENTITY.md: the agent's by --agent, or the agent found by --workspace, --identity-file's folder or the current directory", async () => {
    const state = stateWith(baseConfig({ list: [{ id: "main" }, { id: "ops" }] }));
    const opsWorkspace = path.join(state.stateDir, "workspace-ops");
    fs.mkdirSync(opsWorkspace);
    fs.writeFileSync(path.join(opsWorkspace, "IDENTITY.md"), "# IDENTITY.md\n\n- **Name:** Opsy\n- Emoji: 🚨\n- Vibe: calm\n- Avatar:\n");
    const byAgent = await cli(["agents", "set-identity", "--agent", "ops", "--from-identity", "--json"], state.env);
    expect(JSON.parse(byAgent.stdout)).toMatchObject({
      agentId: "ops",
      identity: { name: "Opsy", emoji: "🚨" },
      changed: true,
      workspace: opsWorkspace,
      identityFile: path.join(opsWorkspace, "IDENTITY.md"),
    });
    // The legacy list spelling is edited in place.
    expect(state.read().agents.list).toEqual([{ id: "main" }, { id: "ops", identity: { name: "Opsy", emoji: "🚨" } }]);

    // No field flag: IDENTITY.md of the agent working in the current directory; a flag wins over the file.
    fs.writeFileSync(path.join(opsWorkspace, "IDENTITY.md"), "Name: Ops Two\nEmoji: 🔧\n");
    const byCwd = await cli(["agents", "set-identity", "--from-identity", "--emoji", "⚙️"], state.env, opsWorkspace);
    expect(byCwd.stdout).toBe([`Updated config: ${state.file}`, "Agent: ops", "Name: Ops Two", "Emoji: ⚙️", `Workspace: ${opsWorkspace}`, ""].join("\n"));

    // --identity-file elsewhere: it locates the identity, the stored workspace stays.
    const elsewhere = makeTempDir();
    fs.writeFileSync(path.join(elsewhere, "me.md"), "- Name: Main Claw\n");
    const byFile = await cli(["agents", "set-identity", "--agent", "main", "--identity-file", path.join(elsewhere, "me.md")], state.env);
    expect(byFile.stdout).toContain(`Identity read from: ${path.join(elsewhere, "me.md")} (the agent's workspace is not changed)\n`);
    expect(state.read().agents.list[0]).toEqual({ id: "main", identity: { name: "Main Claw" } });

    const byWorkspace = await cli(["agents", "set-identity", "--workspace", opsWorkspace, "--name", "Opsy"], state.env);
    expect(byWorkspace.stdout).toContain("Agent: ops\nName: Opsy\n");
  });

  it("refuses --theme, an empty value, an IDENTITY.md without identity and a workspace no agent has, changing nothing", async () => {
    const state = stateWith(twoAgents());
    const before = state.bytes();
    const workWorkspace = state.read().agents.entries.work.workspace;
    fs.mkdirSync(workWorkspace);
    fs.writeFileSync(path.join(workWorkspace, "IDENTITY.md"), "# IDENTITY.md - your identity\n\n- Name:\n- Emoji:\n");
    const refusals: [string[], string][] = [
      [["--agent", "work", "--theme", "space lobster"], "openclaw: --theme is not supported: agents.entries.<id>.identity has name, emoji and avatar here, no theme.\n"],
      [["--agent", "work", "--name", " "], "openclaw: --name needs a value (to remove it: openclaw config unset agents.entries.<id>.identity.name)\n"],
      [["--agent", "work"], `openclaw: No identity in ${path.join(workWorkspace, "IDENTITY.md")}: it has no Name, Emoji or Avatar line with a value.\n`],
      [["--workspace", "/nowhere", "--name", "X"], "openclaw: No agent's workspace is /nowhere: pass --agent <id>.\n"],
      [["--agent", "nope", "--name", "X"], 'openclaw: Agent "nope" not found (configured agents: main, work; openclaw agents list shows them).\n'],
    ];
    for (const [args, stderr] of refusals) {
      const result = await cli(["agents", "set-identity", ...args], state.env);
      expect({ args, ...result }).toEqual({ args, code: 1, stdout: "", stderr });
    }
    expect(state.bytes()).toBe(before);
  });
});

describe("a config file the agents commands cannot use", () => {
  it("one that does not parse is refused (exit 78) and left byte for byte as it was", async () => {
    const text = "{\n  agents: { entries: { main: {}, work: {} } },\n  bindings: [ // unfinished\n";
    const state = stateWith(text, "openclaw.json5");
    for (const args of [
      ["add", "ops", "--workspace", path.join(state.stateDir, "ws-ops")],
      ["delete", "work", "--force"],
      ["bind", "--bind", "telegram"],
      ["unbind", "--all"],
      ["set-identity", "--agent", "work", "--name", "W"],
    ]) {
      const result = await cli(["agents", ...args], state.env);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 78, stdout: "" });
      expect(result.stderr).toMatch(/^openclaw: invalid config: /);
    }
    expect(state.bytes()).toBe(text);
    expect(fs.existsSync(path.join(state.stateDir, "ws-ops"))).toBe(false);
  });

  it("an edit whose result is invalid writes nothing and names the key (exit 1); a YAML file keeps its comments", async () => {
    const yaml = [
      "# agents of this box",
      "agents:",
      "  defaults:",
      "    model: box/small # the small one",
      "  entries:",
      "    main:",
      "      name: Main",
      "models:",
      "  providers:",
      "    box: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: sk-box, api: openai-completions, models: [{ id: small }] }",
      "channels:",
      "  telegram: { botToken: '1:a' }",
      "",
    ].join("\n");
    const state = stateWith(yaml, "openclaw.yaml");
    const refused = await cli(["agents", "bind", "--bind", "telegram:ops"], state.env);
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: 'openclaw: not saved: bindings[0].match.accountId: no account "ops" in channels.telegram (its accounts: default; "*" is every account)\nConfig was not changed.\n',
    });
    expect(state.bytes()).toBe(yaml);
    expect((await cli(["agents", "set-identity", "--agent", "main", "--emoji", "🦞"], state.env)).code).toBe(0);
    const written = state.bytes();
    expect(written).toContain("# agents of this box\n");
    expect(written).toContain("model: box/small # the small one\n");
    expect(written).toContain("    main:\n      name: Main\n      identity:\n        emoji: 🦞\n");
  });
});

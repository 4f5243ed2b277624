import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir } from "../helpers/gateway-process.js";

/**
 * `openclaw agents bindings|bind|unbind`: OpenClaw's agent commands on the
 * local config file, run as the built CLI in a temp state dir, with no gateway. Each edit goes
 * through the validated, atomic config writer: every refusal leaves the file byte for byte as it
 * was.
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

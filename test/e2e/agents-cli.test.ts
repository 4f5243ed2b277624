import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw agents list`: the configured agents read from the local config, as OpenClaw's CLI
 * reads them (no gateway running), with the route bindings that send chats to each.
 */

function stateWith(config: unknown): { stateDir: string; env: Record<string, string> } {
  const stateDir = makeTempDir("openclaw-agents-cli-");
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  return { stateDir, env: { OPENCLAW_STATE_DIR: stateDir } };
}

/** Two agents, `work` with its own workspace and model, and three bindings: two route to `work`, one is an ACP binding. */
function twoAgents(workWorkspace: string) {
  return {
    agents: {
      defaults: { model: { primary: "fake/fake-model" } },
      entries: {
        main: { default: true, name: "Main", identity: { name: "Claw", emoji: "🦞" } },
        work: { name: "Work", workspace: workWorkspace, model: "fake/work-model" },
      },
    },
    models: { providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-fake", api: "openai-completions", models: [{ id: "fake-model" }, { id: "work-model" }] } } },
    channels: { telegram: { botToken: "123:abc" } },
    acp: { agents: { codex: { command: "codex-acp" } } },
    bindings: [
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100123" } } },
      { agentId: "Work", match: { channel: "telegram", accountId: "*" } },
      { type: "acp", agentId: "codex", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
    ],
  };
}

describe("openclaw agents list", () => {
  it("lists each agent with its default marker, identity, workspace, model and routing", async () => {
    const workWorkspace = makeTempDir("openclaw-agents-cli-work-");
    const { stateDir, env } = stateWith(twoAgents(workWorkspace));
    const { code, output } = await runCli(["agents", "list"], env);
    expect(code, output).toBe(0);
    expect(output).toBe(
      [
        "Agents:",
        "- main (default) (Main)",
        "  Identity: 🦞 Claw (config)",
        `  Workspace: ${path.join(stateDir, "workspace")}`,
        "  Model: fake/fake-model",
        "  Routing rules: 0",
        "  Routing: default (no explicit rules)",
        "- work (Work)",
        `  Workspace: ${workWorkspace}`,
        "  Model: fake/work-model",
        "  Routing rules: 2",
        "  Routing: Telegram default, Telegram *",
        "Routing rules map channel/account/peer to an agent. Use --bindings for full rules.",
        "",
      ].join("\n"),
    );
    // Bare `openclaw agents` is `agents list`, as in OpenClaw.
    expect((await runCli(["agents"], env)).output).toBe(output);
  });

  it("--bindings adds each route binding's match under its agent (ACP bindings choose no agent and are left out)", async () => {
    const { env } = stateWith(twoAgents(makeTempDir("openclaw-agents-cli-work-")));
    const { code, output } = await runCli(["agents", "list", "--bindings"], env);
    expect(code, output).toBe(0);
    expect(output).toContain(["  Routing: Telegram default, Telegram *", "  Routing rules:", "    - telegram peer=group:-100123", "    - telegram accountId=*", ""].join("\n"));
    expect(output).not.toContain("codex");
  });

  it("--json prints one row per agent; with --bindings the rows carry routes and binding details", async () => {
    const workWorkspace = makeTempDir("openclaw-agents-cli-work-");
    const { stateDir, env } = stateWith(twoAgents(workWorkspace));
    const plain = await runCli(["agents", "list", "--json"], env);
    expect(plain.code, plain.output).toBe(0);
    expect(JSON.parse(plain.output)).toEqual([
      {
        id: "main",
        name: "Main",
        identityName: "Claw",
        identityEmoji: "🦞",
        identitySource: "config",
        workspace: path.join(stateDir, "workspace"),
        model: "fake/fake-model",
        bindings: 0,
        isDefault: true,
      },
      { id: "work", name: "Work", workspace: workWorkspace, model: "fake/work-model", bindings: 2, isDefault: false },
    ]);
    const withBindings = JSON.parse((await runCli(["agents", "list", "--json", "--bindings"], env)).output);
    expect(withBindings[0]).toMatchObject({ id: "main", routes: ["default (no explicit rules)"] });
    expect(withBindings[0].bindingDetails).toBeUndefined();
    expect(withBindings[1]).toMatchObject({
      id: "work",
      routes: ["Telegram default", "Telegram *"],
      bindingDetails: ["telegram peer=group:-100123", "telegram accountId=*"],
    });
  });

  it("without agents in the config lists the implicit main agent", async () => {
    const { stateDir, env } = stateWith({});
    const result = JSON.parse((await runCli(["agents", "list", "--json"], env)).output);
    expect(result).toEqual([{ id: "main", workspace: path.join(stateDir, "workspace"), bindings: 0, isDefault: true }]);
  });

  it("an invalid config fails with exit 78 naming the key", async () => {
    const { env } = stateWith({ agents: { entries: { main: { model: 42 } } } });
    const result = await runCli(["agents", "list", "--json"], env);
    expect(result.code).toBe(78);
    expect(JSON.parse(result.output).error.message).toMatch(/^invalid config: .*agents\.entries\.main\.model/);
  });
});

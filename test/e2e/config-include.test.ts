import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { chatRequests } from "../helpers/reliability.js";

/**
 * OpenClaw's `$include`: a config split over files (docs/configuration.md, "Splitting the file").
 * `config validate`, `config get` and a real gateway read the merged config; an edit to an
 * included file reloads the running gateway; every way an include can be wrong is refused at its
 * key with what is wrong.
 */

const servers = useFakeServers();

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

async function validate(stateDir: string, env: Record<string, string | undefined> = {}) {
  return runCli(["config", "validate"], { OPENCLAW_STATE_DIR: stateDir, ...env });
}

describe("$include in the config file", () => {
  it("merges the files in place: one replaces its object, a list deep-merges in order, keys beside it win", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir("openclaw-include-");
    write(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({
        agents: { $include: "./conf/agents.json5", defaults: { timeoutSeconds: 99 } },
        bindings: { $include: ["./conf/telegram-bindings.json", "./conf/discord-bindings.yaml"] },
        models: { $include: "conf/models.json5" },
      }),
    );
    write(
      path.join(stateDir, "conf/agents.json5"),
      `// agents, kept apart\n{ defaults: { model: "fake/fake-model", timeoutSeconds: 10 }, entries: { main: {}, helper: { name: "Helper" } } }`,
    );
    write(path.join(stateDir, "conf/telegram-bindings.json"), JSON.stringify([{ agentId: "helper", match: { channel: "telegram" } }]));
    write(path.join(stateDir, "conf/discord-bindings.yaml"), "- agentId: main\n  match:\n    channel: discord\n");
    write(path.join(stateDir, "conf/models.json5"), `{ providers: { fake: { $include: "./fake-provider.json5" } } }`);
    write(path.join(stateDir, "conf/fake-provider.json5"), `{ baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "fake-model" }] }`);

    const res = await validate(stateDir);
    expect(res.code, res.output).toBe(0);
    const get = async (key: string) => JSON.parse((await runCli(["config", "get", key, "--json"], { OPENCLAW_STATE_DIR: stateDir })).output);
    expect(await get("agents.defaults")).toMatchObject({ model: "fake/fake-model", timeoutSeconds: 99 });
    expect(await get("agents.entries.helper.name")).toBe("Helper");
    expect((await get("bindings")).map((binding: { agentId: string }) => binding.agentId)).toEqual(["helper", "main"]);
    expect(await get("models.providers.fake.baseUrl")).toBe("http://127.0.0.1:9/v1");

    // An edit writes the config file itself: beside the $include, so it wins over the included value.
    const set = await runCli(["config", "set", "agents.defaults.model", "fake/other"], { OPENCLAW_STATE_DIR: stateDir });
    expect(set.code, set.output).toBe(0);
    const written = JSON.parse(fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8"));
    expect(written.agents).toEqual({ $include: "./conf/agents.json5", defaults: { timeoutSeconds: 99, model: "fake/other" } });
    expect(await get("agents.defaults.model")).toBe("fake/other");
    expect(fs.readFileSync(path.join(stateDir, "conf/agents.json5"), "utf8")).toContain('model: "fake/fake-model"');
  });

  it("a running gateway reads its model from an included file, and an edit to that file reloads it", { timeout: 60_000 }, async () => {
    const stateDir = makeTempDir("openclaw-include-gw-");
    const agentsFile = path.join(stateDir, "agents.yaml");
    const agents = (model: string) => `defaults:\n  workspace: ${path.join(stateDir, "workspace")}\n  model: fake/${model}\n`;
    write(agentsFile, agents("model-one"));
    const provider = { baseUrl: `${servers.model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "model-one" }, { id: "model-two" }] };
    const config = { agents: { $include: "./agents.yaml" }, models: { providers: { fake: provider } }, gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const chat = (text: string) =>
      fetch(`${gateway.httpUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gateway.token}` },
        body: JSON.stringify({ model: "openclaw", user: "include", messages: [{ role: "user", content: text }] }),
      });
    expect((await chat("first")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.body.model).toBe("model-one");

    fs.writeFileSync(agentsFile, agents("model-two"));
    await gateway.waitForOutput(/"changedPaths":\["agents\.defaults\.model"\].*"msg":"config reloaded"/, 15_000);
    expect((await chat("second")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.body.model).toBe("model-two");

    // An included file made invalid: the reload is skipped, naming the file, and the gateway keeps its config.
    fs.writeFileSync(agentsFile, "defaults: [unclosed\n");
    await gateway.waitForOutput(/config reload skipped \(invalid config\)/, 15_000);
    expect(gateway.output()).toContain("agents.$include: cannot parse ./agents.yaml");
    expect((await chat("third")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.body.model).toBe("model-two");
  });

  it("refuses what OpenClaw refuses, at the include's key: a missing file, a path outside, a cycle, a bad file, keys beside a list", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir("openclaw-include-bad-");
    const outside = makeTempDir("openclaw-include-outside-");
    write(path.join(outside, "secret.json"), JSON.stringify({ token: "outside-token" }));
    fs.symlinkSync(path.join(outside, "secret.json"), path.join(stateDir, "linked.json"));
    write(path.join(stateDir, "loop-a.json"), JSON.stringify({ $include: "./loop-b.json" }));
    write(path.join(stateDir, "loop-b.json"), JSON.stringify({ $include: "./loop-a.json" }));
    write(path.join(stateDir, "broken.json5"), "{ port: 1,, }");
    write(path.join(stateDir, "list.json"), "[1, 2]");
    write(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({
        agents: { $include: "./missing.json" },
        models: { $include: "../escape.json" },
        gateway: { auth: { $include: "./linked.json" } },
        tools: { $include: "./loop-a.json" },
        session: { $include: "./broken.json5" },
        memory: { $include: "./list.json", enabled: true },
        logging: { $include: 42 },
      }),
    );
    const res = await validate(stateDir);
    expect(res.code).toBe(78);
    const expected = [
      `agents.$include: ./missing.json not found (${path.join(stateDir, "missing.json")})`,
      `models.$include: ../escape.json is outside the config file's folder (${stateDir}); move it there or add its folder to OPENCLAW_INCLUDE_ROOTS`,
      `gateway.auth.$include: ./linked.json leads through a symlink to ${fs.realpathSync(path.join(outside, "secret.json"))}, which is outside the config file's folder (${stateDir})`,
    ];
    // One problem at a time: the first include that fails (in the file's order) stops the load.
    expect(res.output).toContain(expected[0]);

    const one = async (key: string, include: unknown, extra: Record<string, unknown> = {}) => {
      write(path.join(stateDir, "openclaw.json"), JSON.stringify({ [key]: { $include: include, ...extra } }));
      return (await validate(stateDir)).output;
    };
    for (const [key, include, line] of [
      ["agents", "./missing.json", expected[0]],
      ["models", "../escape.json", expected[1]],
      [
        "tools",
        "./loop-a.json",
        `tools.$include: circular $include: ${path.join(stateDir, "openclaw.json")} -> ${path.join(stateDir, "loop-a.json")} -> ${path.join(stateDir, "loop-b.json")} -> ${path.join(stateDir, "loop-a.json")}`,
      ],
      ["session", "./broken.json5", `session.$include: cannot parse ./broken.json5: ${path.join(stateDir, "broken.json5")}:1:11:`],
      ["logging", 42, "logging.$include: expected a file path or a list of file paths"],
    ] as const) {
      expect(await one(key, include)).toContain(line);
    }
    expect(await one("gateway", "./linked.json")).toContain(expected[2]!.replace("gateway.auth.$include", "gateway.$include"));
    expect(await one("memory", "./list.json", { enabled: true })).toContain("memory.$include: keys beside $include need the included file to hold an object");
    expect(await one("gateway", "./linked.json")).not.toContain("outside-token");

    // OPENCLAW_INCLUDE_ROOTS admits another folder.
    write(path.join(outside, "agents.json"), JSON.stringify({ defaults: { timeoutSeconds: 42 } }));
    write(path.join(stateDir, "openclaw.json"), JSON.stringify({ agents: { $include: path.join(outside, "agents.json") } }));
    expect((await validate(stateDir)).output).toContain("is outside the config file's folder");
    const admitted = await validate(stateDir, { OPENCLAW_INCLUDE_ROOTS: outside });
    expect(admitted.code, admitted.output).toBe(0);
  });

  it("a top-level $schema is still accepted", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    write(path.join(stateDir, "openclaw.json"), JSON.stringify({ $schema: "https://example.invalid/openclaw.schema.json" }));
    const res = await validate(stateDir);
    expect(res.code).toBe(0);
    expect(res.output).not.toContain("warning");
  });
});

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir } from "../helpers/gateway-process.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { chatRequests } from "../helpers/reliability.js";

/**
 * `openclaw models set|set-image|fallbacks|image-fallbacks|aliases`: OpenClaw's model-setting
 * commands, editing the local config file through `config set`'s writer (validated, atomic),
 * and a running gateway taking the new default model at its next turn.
 */

/** The built CLI with stdout and stderr kept apart. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: cleanEnv(env), timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const provider = {
  baseUrl: "http://127.0.0.1:9/v1",
  apiKey: "sk-box",
  api: "openai-completions",
  models: [{ id: "llama3.2" }, { id: "qwen3", input: ["text", "image"] }, { id: "big-model" }],
};

/** A state dir whose config file is `config` (JSON, or the text given for a YAML file). */
function stateWith(config: unknown, name = "openclaw.json"): { file: string; env: Record<string, string>; read: () => any } {
  const stateDir = makeTempDir("openclaw-models-edit-");
  const file = path.join(stateDir, name);
  fs.writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return { file, env: { OPENCLAW_STATE_DIR: stateDir }, read: () => JSON.parse(fs.readFileSync(file, "utf8")) };
}

describe("openclaw models set / set-image", () => {
  it("writes the resolved provider/model: a string stays a string, an object keeps its fallbacks", async () => {
    const plain = stateWith({ agents: { defaults: { model: "box/llama3.2", models: { "box/qwen3": { alias: "vision" } } } }, models: { providers: { box: provider } } });
    const viaAlias = await cli(["models", "set", "vision"], plain.env);
    expect(viaAlias).toEqual({ code: 0, stdout: `Updated config: ${plain.file}\nDefault model: box/qwen3\n`, stderr: "" });
    expect(plain.read().agents.defaults.model).toBe("box/qwen3");
    // A bare id one provider lists resolves to it.
    expect((await cli(["models", "set", "big-model"], plain.env)).stdout).toContain("Default model: box/big-model\n");
    expect(plain.read().agents.defaults.model).toBe("box/big-model");
    const again = await cli(["models", "set", "box/big-model"], plain.env);
    expect(again).toEqual({ code: 0, stdout: "Default model: box/big-model (unchanged)\n", stderr: "" });

    const chain = stateWith({ agents: { defaults: { model: { primary: "box/llama3.2", fallbacks: ["box/big-model"] } } }, models: { providers: { box: provider } } });
    expect((await cli(["models", "set", "box/qwen3"], chain.env)).code).toBe(0);
    expect(chain.read().agents.defaults.model).toEqual({ primary: "box/qwen3", fallbacks: ["box/big-model"] });

    const none = stateWith({ models: { providers: { box: provider } } });
    expect((await cli(["models", "set-image", "box/qwen3"], none.env)).stdout).toBe(`Updated config: ${none.file}\nImage model: box/qwen3\n`);
    expect(none.read().agents.defaults.imageModel).toEqual({ primary: "box/qwen3" });
  });

  it("an unknown provider or a ref that does not parse writes nothing and says why; an unlisted model is saved with a warning", async () => {
    const state = stateWith({ agents: { defaults: { model: "box/llama3.2" } }, models: { providers: { box: provider } } });
    const before = fs.readFileSync(state.file, "utf8");
    const unknown = await cli(["models", "set", "nope/m1"], state.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe(
      'openclaw: Unknown model provider "nope" (model nope/m1): add it under models.providers.nope (baseUrl, api, apiKey) or pick a known provider (configured providers: box; built in: anthropic, openai, ollama). Config was not changed.\n',
    );
    const bad = await cli(["models", "set", "box/"], state.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Model ref "box/" has no model id after the slash');
    const spaced = await cli(["models", "set", "box/llama 3"], state.env);
    expect(spaced.stderr).toContain('Invalid model reference: "box/llama 3"');
    const bare = await cli(["models", "set", "gpt-x"], state.env);
    expect(bare.stderr).toContain('Model "gpt-x" names no provider');
    expect(fs.readFileSync(state.file, "utf8")).toBe(before);

    const unlisted = await cli(["models", "set", "box/llama4"], state.env);
    expect(unlisted.code).toBe(0);
    expect(unlisted.stdout).toBe(`Updated config: ${state.file}\nDefault model: box/llama4\n`);
    expect(unlisted.stderr).toBe(
      'warning: Model "box/llama4" is not in models.providers.box.models (llama3.2, qwen3, big-model); check the model id, or add it there so its context window and input are known.\n',
    );
    expect(state.read().agents.defaults.model).toBe("box/llama4");
  });

  it("an invalid config exits 78 and is left as it is; an agent with its own model is named", async () => {
    const broken = stateWith({ agents: { defaults: { model: 42 } }, models: { providers: { box: provider } } });
    const before = fs.readFileSync(broken.file, "utf8");
    for (const args of [
      ["models", "set", "box/qwen3"],
      ["models", "fallbacks", "add", "box/qwen3"],
      ["models", "aliases", "list"],
    ]) {
      const res = await cli(args, broken.env);
      expect(res.code, args.join(" ")).toBe(78);
      expect(res.stderr).toMatch(/^openclaw: invalid config: /);
    }
    expect(fs.readFileSync(broken.file, "utf8")).toBe(before);

    const own = stateWith({
      agents: { defaults: { model: "box/llama3.2" }, entries: { main: { default: true }, work: { model: "box/big-model" } } },
      models: { providers: { box: provider } },
    });
    const res = await cli(["models", "set", "box/qwen3"], own.env);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('warning: agent "work" has its own model in the config, which this does not change\n');
  });

  it("a YAML config keeps its comments", async () => {
    const yaml = [
      "# my gateway",
      "agents:",
      "  defaults:",
      "    model: box/llama3.2 # the daily driver",
      "models:",
      "  providers:",
      "    box:",
      "      baseUrl: http://127.0.0.1:9/v1",
      "      apiKey: sk-box",
      "      api: openai-completions",
      "      models: [{id: llama3.2}, {id: qwen3}]",
      "",
    ].join("\n");
    const state = stateWith(yaml, "openclaw.yaml");
    expect((await cli(["models", "set", "box/qwen3"], state.env)).code).toBe(0);
    expect((await cli(["models", "fallbacks", "add", "box/llama3.2"], state.env)).code).toBe(0);
    const text = fs.readFileSync(state.file, "utf8");
    expect(text).toContain("# my gateway\n");
    expect(text).toContain("primary: box/qwen3");
    expect(text).toContain("fallbacks:");
  });
});

describe("openclaw models fallbacks / image-fallbacks", () => {
  it("list, add (an alias resolves), add again, remove, clear — text, --json and --plain", async () => {
    const state = stateWith({ agents: { defaults: { model: "box/llama3.2", models: { "box/qwen3": { alias: "vision" } } } }, models: { providers: { box: provider } } });
    expect(await cli(["models", "fallbacks", "list"], state.env)).toEqual({ code: 0, stdout: "Fallbacks (0):\n- none\n", stderr: "" });

    expect((await cli(["models", "fallbacks", "add", "vision"], state.env)).stdout).toBe(`Updated config: ${state.file}\nFallbacks: box/qwen3\n`);
    // The string model becomes {primary, fallbacks}: a string holds no fallbacks.
    expect(state.read().agents.defaults.model).toEqual({ primary: "box/llama3.2", fallbacks: ["box/qwen3"] });
    expect((await cli(["models", "fallbacks", "add", "box/big-model"], state.env)).stdout).toContain("Fallbacks: box/qwen3, box/big-model\n");
    const dup = await cli(["models", "fallbacks", "add", "box/qwen3"], state.env);
    expect(dup).toEqual({ code: 0, stdout: "box/qwen3 is already a fallback.\nFallbacks: box/qwen3, box/big-model\n", stderr: "" });

    expect((await cli(["models", "fallbacks", "list"], state.env)).stdout).toBe("Fallbacks (2):\n- box/qwen3\n- box/big-model\n");
    expect(JSON.parse((await cli(["models", "fallbacks", "list", "--json"], state.env)).stdout)).toEqual({ fallbacks: ["box/qwen3", "box/big-model"] });
    expect((await cli(["models", "fallbacks", "list", "--plain"], state.env)).stdout).toBe("box/qwen3\nbox/big-model\n");
    const both = await cli(["models", "fallbacks", "list", "--json", "--plain"], state.env);
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout).error.message).toBe("Choose either --json or --plain, not both.");

    const missing = await cli(["models", "fallbacks", "remove", "box/llama3.2"], state.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("openclaw: Fallback not found: box/llama3.2. Run openclaw models fallbacks list to see configured fallbacks.\n");
    const unknown = await cli(["models", "fallbacks", "add", "nope/x"], state.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown model provider "nope"');

    expect((await cli(["models", "fallbacks", "remove", "vision"], state.env)).stdout).toBe(`Updated config: ${state.file}\nFallbacks: box/big-model\n`);
    expect((await cli(["models", "fallbacks", "clear"], state.env)).stdout).toBe(`Updated config: ${state.file}\nFallback list cleared.\n`);
    expect(state.read().agents.defaults.model).toEqual({ primary: "box/llama3.2", fallbacks: [] });
    expect((await cli(["models", "fallbacks", "clear"], state.env)).stdout).toBe("Fallbacks: none (nothing to clear)\n");

    expect((await cli(["models", "image-fallbacks", "add", "box/qwen3"], state.env)).stdout).toBe(`Updated config: ${state.file}\nImage fallbacks: box/qwen3\n`);
    expect(state.read().agents.defaults.imageModel).toEqual({ fallbacks: ["box/qwen3"] });
    expect((await cli(["models", "image-fallbacks", "list"], state.env)).stdout).toBe("Image fallbacks (1):\n- box/qwen3\n");
    const imageMissing = await cli(["models", "image-fallbacks", "remove", "box/big-model"], state.env);
    expect(imageMissing.stderr).toBe("openclaw: Image fallback not found: box/big-model. Run openclaw models image-fallbacks list to see configured fallbacks.\n");
    expect((await cli(["models", "image-fallbacks", "clear"], state.env)).stdout).toContain("Image fallback list cleared.\n");
  });
});

describe("openclaw models aliases", () => {
  it("list, add (repointing through an alias), a taken alias, remove — text, --json and --plain", async () => {
    const state = stateWith({
      agents: { defaults: { model: "box/llama3.2", models: { "box/qwen3": { alias: "vision", params: { temperature: 0.2 } } } } },
      models: { providers: { box: provider } },
    });
    expect((await cli(["models", "aliases", "list"], state.env)).stdout).toBe("Aliases (1):\n- vision -> box/qwen3\n");

    expect(await cli(["models", "aliases", "add", "fast", "box/llama3.2"], state.env)).toEqual({
      code: 0,
      stdout: `Updated config: ${state.file}\nAlias fast -> box/llama3.2\n`,
      stderr: "",
    });
    // An alias as the model means the model it names.
    expect((await cli(["models", "aliases", "add", "eyes", "vision"], state.env)).stderr).toBe('warning: box/qwen3 was "vision"; that alias no longer exists\n');
    expect(state.read().agents.defaults.models["box/qwen3"]).toEqual({ alias: "eyes", params: { temperature: 0.2 } });

    expect((await cli(["models", "aliases", "list"], state.env)).stdout).toBe("Aliases (2):\n- eyes -> box/qwen3\n- fast -> box/llama3.2\n");
    expect(JSON.parse((await cli(["models", "aliases", "list", "--json"], state.env)).stdout)).toEqual({ aliases: { eyes: "box/qwen3", fast: "box/llama3.2" } });
    expect((await cli(["models", "aliases", "list", "--plain"], state.env)).stdout).toBe("eyes box/qwen3\nfast box/llama3.2\n");

    const taken = await cli(["models", "aliases", "add", "FAST", "box/big-model"], state.env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe("openclaw: Alias FAST already points to box/llama3.2. Remove it first (openclaw models aliases remove FAST), then add it again.\n");
    const badName = await cli(["models", "aliases", "add", "my alias", "box/qwen3"], state.env);
    expect(badName.stderr).toBe('openclaw: Alias "my alias" must use letters, numbers, dots, underscores, colons, or dashes.\n');
    const unknown = await cli(["models", "aliases", "add", "x", "nope/m"], state.env);
    expect(unknown.stderr).toContain('Unknown model provider "nope"');
    const missing = await cli(["models", "aliases", "remove", "nobody"], state.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("openclaw: Alias not found: nobody. Run openclaw models aliases list to see configured aliases.\n");

    // The alias goes; the model's params stay, and an entry holding nothing else goes with it.
    expect((await cli(["models", "aliases", "remove", "EYES"], state.env)).stdout).toBe(`Updated config: ${state.file}\nRemoved alias eyes -> box/qwen3\n`);
    expect((await cli(["models", "aliases", "remove", "fast"], state.env)).stdout).toBe(
      `Updated config: ${state.file}\nRemoved alias fast -> box/llama3.2\nNo aliases configured.\n`,
    );
    expect(state.read().agents.defaults.models).toEqual({ "box/qwen3": { params: { temperature: 0.2 } } });
  });
});

describe("a running gateway", () => {
  const fixture = useFakeModelGateway({
    configure: (config) => {
      config.models.providers.fake.models.push({ id: "other-model" });
    },
  });

  it("takes the newly set default model at its next turn, through its config reload", async () => {
    const { gw, model, stateDir } = fixture;
    const chat = (text: string) =>
      fetch(`${gw.httpUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gw.token}` },
        body: JSON.stringify({ model: "openclaw", user: "models-edit", messages: [{ role: "user", content: text }] }),
      });
    expect((await chat("first")).status).toBe(200);
    expect(chatRequests(model).at(-1)!.body.model).toBe("fake-model");

    const res = await cli(["models", "set", "fake/other-model"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.stderr).toBe("");
    expect(res.stdout).toBe(`Updated config: ${path.join(stateDir, "openclaw.json")}\nDefault model: fake/other-model\n`);
    await gw.waitForOutput(/"changedPaths":\["agents\.defaults\.model\.primary"\].*"msg":"config reloaded"/, 15_000);
    expect((await chat("second")).status).toBe(200);
    expect(chatRequests(model).at(-1)!.body.model).toBe("other-model");
  });
});

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Issue 16 in a Telegram DM: the fallback notice (once per change, then "cleared"), and the
 * session commands /model, /think, /verbose, /reasoning and /status applying to the next turn.
 */

const OWNER = 4242;
let primary: FakeModelServer;
let backup: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let messageId = 1;

beforeAll(async () => {
  [primary, backup] = await Promise.all([startFakeModelServer(), startFakeModelServer()]);
  telegram = await startFakeTelegram();
  const stateDir = makeTempDir();
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "primary/m1", fallbacks: ["backup/m2"] } } },
    models: {
      providers: {
        primary: { baseUrl: `${primary.url}/v1`, apiKey: "sk-primary-0000", api: "openai-completions", models: [{ id: "m1", reasoning: true }] },
        backup: { baseUrl: backup.url, apiKey: "sk-backup-0000", api: "anthropic-messages", models: [{ id: "m2" }] },
      },
    },
    channels: {
      telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
    },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await Promise.all([primary?.close(), backup?.close()]);
});

const replies = () => telegram.messages(OWNER).map((m) => String(m.text));
const posts = (server: FakeModelServer): RecordedRequest[] => server.requests.filter((r) => r.method === "POST");

/** Sends a DM and returns the bot's messages that answered it (waits for `count` of them). */
async function dm(text: string, count = 1): Promise<string[]> {
  const before = replies().length;
  telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text, messageId: messageId++ });
  await telegram.waitFor(() => replies().length >= before + count, 15_000);
  return replies().slice(before);
}

describe("fallback notices in a DM", () => {
  it("tells the change once, not on every turn, and tells when the selected model is back", async () => {
    primary.setResponder(() => ({ status: 500 }));
    backup.setResponder((req) => ({ text: `backup: ${lastUserText(req) || "?"}` }));
    expect(await dm("first", 2)).toEqual(["↪️ Model Fallback: backup/m2 (selected primary/m1; server error)", expect.stringMatching(/^backup: /)]);
    const second = await dm("second", 1);
    expect(second).toEqual([expect.stringMatching(/^backup: /)]);

    primary.setResponder(() => ({ text: "primary is back" }));
    expect(await dm("third", 2)).toEqual(["↪️ Model Fallback cleared: primary/m1 answers again", "primary is back"]);
  });
});

describe("session commands", () => {
  it("/model <ref> is used from the next message with no fallback; /model default goes back", async () => {
    primary.setResponder(() => ({ text: "from primary" }));
    backup.setResponder(() => ({ text: "from backup" }));
    expect((await dm("/model nowhere/x"))[0]).toMatch(/Unknown model provider "nowhere"/);
    expect((await dm("/model backup/m2"))[0]).toContain("Model for this session: backup/m2");
    expect(await dm("which one?")).toEqual(["from backup"]);
    expect((await dm("/status"))[0]).toContain("Model: backup/m2 (chosen with /model) · last answer from backup/m2");

    // Strict: the chosen model failing is reported, not replaced by the agent's.
    const primaryBefore = posts(primary).length;
    backup.setResponder(() => ({ status: 401 }));
    const failed = await dm("fail please");
    expect(failed[0]).not.toBe("from primary");
    expect(posts(primary)).toHaveLength(primaryBefore);

    expect((await dm("/model default"))[0]).toContain("back to the agent's (primary/m1)");
    expect(await dm("and now?")).toEqual(["from primary"]);
  });

  it("/think high reaches the wire as reasoning_effort; a bad level changes nothing", async () => {
    primary.setResponder(() => ({ text: "thinking done" }));
    expect((await dm("/think enormous"))[0]).toContain("Unknown thinking level");
    expect((await dm("/think high"))[0]).toContain("Thinking for this session: high");
    await dm("think about it");
    expect(posts(primary).at(-1)!.body.reasoning_effort).toBe("high");
    expect((await dm("/status"))[0]).toContain("Thinking: high");
    // OpenClaw's other spelling of /think.
    expect((await dm("/thinking low"))[0]).toContain("Thinking for this session: low");
    await dm("/think off");
    await dm("quick one");
    expect(posts(primary).at(-1)!.body.reasoning_effort).toBeUndefined();
  });

  it("inline /think, /verbose and /reasoning apply to their own message only, taken out of its text", async () => {
    let n = 0;
    primary.setResponder(() => (++n % 2 === 1 ? { toolCalls: [{ name: "read", arguments: { path: "AGENTS.md" } }] } : { thinking: "Look first.", text: "read it" }));
    expect(await dm("/think high /verbose on please read your notes /reasoning on", 3)).toEqual(["Thinking:\nLook first.", "📖 Read: AGENTS.md", "read it"]);
    const sent = posts(primary).at(-2)!.body;
    expect(sent.reasoning_effort).toBe("high");
    expect(JSON.stringify(sent.messages.at(-1))).toContain("please read your notes");
    expect(JSON.stringify(sent.messages.at(-1))).not.toContain("/think");
    // The session's own levels did not change: the next message is answered plainly.
    expect(await dm("read them again", 1)).toEqual(["read it"]);
    expect(posts(primary).at(-1)!.body.reasoning_effort).toBeUndefined();
    expect((await dm("/status"))[0]).toContain("verbose off");
  });

  it("/models lists the models as /model list does, as in OpenClaw", async () => {
    const list = (await dm("/model list"))[0];
    expect(list).toContain("primary/m1");
    expect((await dm("/models"))[0]).toBe(list);
  });

  it("/verbose on lists the run's tool calls before the reply; /verbose toggles it off", async () => {
    let n = 0;
    primary.setResponder(() => (++n % 2 === 1 ? { toolCalls: [{ name: "read", arguments: { path: "AGENTS.md" } }] } : { text: "read it" }));
    expect((await dm("/verbose on"))[0]).toContain("Verbose: on");
    expect(await dm("read your notes", 2)).toEqual(["📖 Read: AGENTS.md", "read it"]);
    expect((await dm("/verbose"))[0]).toContain("Verbose: off");
    expect(await dm("again", 1)).toEqual(["read it"]);
  });

  it("agents.defaults.verboseDefault is the level of a session that chose none; /verbose off then holds against it", async () => {
    let n = 0;
    primary.setResponder(() => (++n % 2 === 1 ? { toolCalls: [{ name: "read", arguments: { path: "AGENTS.md" } }] } : { text: "read it" }));
    const reloads = () =>
      gw
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"config reloaded"')).length;
    const before = reloads();
    expect((await runCli(["config", "set", "agents.defaults.verboseDefault", "on"], { OPENCLAW_STATE_DIR: gw.stateDir })).code).toBe(0);
    await waitUntil(() => reloads() > before, 15_000, "the config reload");
    expect(await dm("read again", 2)).toEqual(["📖 Read: AGENTS.md", "read it"]);
    expect((await dm("/status"))[0]).toContain("verbose on");
    // agents.defaults.toolProgressDetail raw: the arguments follow the label.
    const beforeRaw = reloads();
    expect((await runCli(["config", "set", "agents.defaults.toolProgressDetail", "raw"], { OPENCLAW_STATE_DIR: gw.stateDir })).code).toBe(0);
    await waitUntil(() => reloads() > beforeRaw, 15_000, "the config reload");
    expect(await dm("read it raw", 2)).toEqual(['📖 Read: AGENTS.md · {"path":"AGENTS.md"}', "read it"]);
    expect((await dm("/verbose"))[0]).toContain("Verbose: off");
    expect(await dm("and once more", 1)).toEqual(["read it"]);
    expect((await dm("/status"))[0]).toContain("verbose off");
  });
  it("/reasoning on sends the model's reasoning before the reply, think tags in the text too; /reasoning off hides both", async () => {
    let n = 0;
    primary.setResponder(() => (++n % 2 === 1 ? { thinking: "Add 2 and 2.", text: "It is 4." } : { text: "<think>Count the r's.</think>\n\nThree." }));
    expect((await dm("/reasoning loud"))[0]).toContain('Unknown reasoning level "loud"');
    expect((await dm("/reasoning"))[0]).toMatch(/^Reasoning: off \(the default/);
    expect((await dm("/reasoning on"))[0]).toContain("Reasoning for this session: on");
    expect(await dm("what is 2+2?", 2)).toEqual(["Thinking:\nAdd 2 and 2.", "It is 4."]);
    expect(await dm("r's in strawberry?", 2)).toEqual(["Thinking:\nCount the r's.", "Three."]);
    expect((await dm("/status"))[0]).toContain("reasoning on");
    // OpenClaw's alias.
    expect((await dm("/reason off"))[0]).toContain("Reasoning for this session: off");
    expect(await dm("and 3+3?", 1)).toEqual(["It is 4."]);
    expect(await dm("r's in raspberry?", 1)).toEqual(["Three."]);
  });

  it("agents.defaults.reasoningDefault holds for the owner's session until /reasoning says otherwise", async () => {
    primary.setResponder(() => ({ thinking: "Plan the greeting.", text: "Hello." }));
    const reloads = () =>
      gw
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"config reloaded"')).length;
    expect((await dm("/reasoning default"))[0]).toContain("Reasoning: back to the default (off");
    const before = reloads();
    expect((await runCli(["config", "set", "agents.defaults.reasoningDefault", "on"], { OPENCLAW_STATE_DIR: gw.stateDir })).code).toBe(0);
    await waitUntil(() => reloads() > before, 15_000, "the config reload");
    expect((await dm("/reasoning"))[0]).toMatch(/^Reasoning: on \(the agent's reasoningDefault/);
    expect(await dm("hi", 2)).toEqual(["Thinking:\nPlan the greeting.", "Hello."]);
    expect((await dm("/reasoning off"))[0]).toContain("Reasoning for this session: off");
    expect(await dm("hi again", 1)).toEqual(["Hello."]);
  });
});

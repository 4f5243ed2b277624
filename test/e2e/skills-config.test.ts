import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, messagesOf, systemPromptOf } from "../helpers/model-request.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `skills.allowBundled` and `skills.entries.<key>.enabled` in the config file shape the skills a
 * turn is offered and what `skills.status` reports, against the built gateway and a fake model.
 */

let model: FakeModelServer;
let gw: GatewayProcess;

function writeSkill(stateDir: string, name: string): void {
  const dir = path.join(stateDir, "workspace", "skills", name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Use when ${name} is asked for.\n---\nSteps.\n`);
}

/** A skill that is offered only when DEMO_SKILL_TOKEN is supplied, which its entry's apiKey does (primaryEnv). */
function writeKeyedSkill(dir: string): void {
  fs.mkdirSync(path.join(dir, "keyed-skill"), { recursive: true });
  const metadata = JSON.stringify({ openclaw: { primaryEnv: "DEMO_SKILL_TOKEN", requires: { env: ["DEMO_SKILL_TOKEN", "DEMO_SKILL_REGION"] } } });
  fs.writeFileSync(path.join(dir, "keyed-skill", "SKILL.md"), `---\nname: keyed-skill\ndescription: Use when the demo service is asked for.\nmetadata: ${metadata}\n---\nSteps.\n`);
}

let extraDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-skills-config-");
  writeSkill(stateDir, "kept-skill");
  writeSkill(stateDir, "switched-off");
  extraDir = makeTempDir("openclaw-extra-skills-");
  writeKeyedSkill(extraDir);
  const skills = {
    allowBundled: ["gateway-diagnostics"],
    entries: { "switched-off": { enabled: false }, "keyed-skill": { apiKey: "demo-token-0123456789", env: { DEMO_SKILL_REGION: "eu-test" } } },
    load: { extraDirs: [extraDir] },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { skills }) } });
});
afterAll(async () => {
  await gw?.stop();
  await model?.close();
});

describe("skills config", { timeout: 60_000 }, () => {
  it("loads without a warning, and a turn's index leaves out the switched-off skill and the bundled skills not allowed", async () => {
    expect(gw.output()).not.toMatch(/unknown config key/);
    const res = await fetch(`${gw.httpUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const prompt = systemPromptOf(chatRequests(model.requests)[0]!);
    expect(prompt).toContain("- kept-skill: Use when kept-skill is asked for.");
    expect(prompt).toContain("- gateway-diagnostics:");
    expect(prompt).not.toContain("switched-off");
    expect(prompt).not.toContain("workspace-notes");
    // From skills.load.extraDirs, offered because its entry supplies both variables it requires.
    expect(prompt).toContain(`- keyed-skill: Use when the demo service is asked for. → ${path.join(extraDir, "keyed-skill", "SKILL.md")}`);
  });

  it("an exec command of a turn that offers the skill gets its entry's env and its apiKey under primaryEnv", async () => {
    model.enqueue({ toolCalls: [{ id: "call_env", name: "exec", arguments: { command: 'echo "token=$DEMO_SKILL_TOKEN region=$DEMO_SKILL_REGION"' } }] }, { text: "done" });
    const res = await fetch(`${gw.httpUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openclaw", user: "skill-env", messages: [{ role: "user", content: "call the demo service" }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const followUp = chatRequests(model.requests).at(-1)!;
    const toolResult = messagesOf(followUp).find((m) => m.role === "tool");
    expect(JSON.stringify(toolResult?.content)).toContain("token=demo-token-0123456789 region=eu-test");
    // The run's trace masks the key, as it masks every credential of the config.
    const { sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.read"] });
    try {
      const listed = await sock.request("traces.list", { limit: 1 });
      const { payload } = await sock.request("traces.get", { runId: listed.payload.traces[0].runId });
      expect(payload.trace.toolCalls[0].resultHead).toContain("token=[redacted] region=eu-test");
    } finally {
      sock.close();
    }
  });

  it("skills.status reports the switched-off skill as disabled and the other bundled skill as blocked", async () => {
    const { sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.read"] });
    try {
      const res = await sock.request("skills.status", { agentId: "main" });
      const byName = new Map((res.payload.skills as Record<string, any>[]).map((s) => [s.name, s]));
      expect(byName.get("switched-off")).toMatchObject({ disabled: true, blockedByAllowlist: false, eligible: false, modelVisible: false });
      expect(byName.get("workspace-notes")).toMatchObject({ disabled: false, blockedByAllowlist: true, eligible: false, modelVisible: false });
      expect(byName.get("gateway-diagnostics")).toMatchObject({ disabled: false, blockedByAllowlist: false, eligible: true, modelVisible: true });
      expect(byName.get("kept-skill")).toMatchObject({ disabled: false, eligible: true, modelVisible: true });
      expect(byName.get("keyed-skill")).toMatchObject({ source: "openclaw-extra", primaryEnv: "DEMO_SKILL_TOKEN", eligible: true, missing: { env: [] } });
    } finally {
      sock.close();
    }
  });
});

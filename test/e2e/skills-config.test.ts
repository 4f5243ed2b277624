import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, systemPromptOf } from "../helpers/model-request.js";
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

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-skills-config-");
  writeSkill(stateDir, "kept-skill");
  writeSkill(stateDir, "switched-off");
  const skills = { allowBundled: ["gateway-diagnostics"], entries: { "switched-off": { enabled: false } } };
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
    } finally {
      sock.close();
    }
  });
});

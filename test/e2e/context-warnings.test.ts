import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * What the prompt leaves out for a reason the user can fix — a skill whose SKILL.md is skipped,
 * a bootstrap file cut to its limit (docs/skills.md, docs/agents.md) — is said in the gateway's
 * log, naming the file; the turn itself goes on.
 */
let model: FakeModelServer;
let gw: GatewayProcess;
let workspace: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  workspace = path.join(stateDir, "workspace");
  fs.mkdirSync(path.join(workspace, "skills", "release-notes"), { recursive: true });
  // No name: the skill is skipped.
  fs.writeFileSync(path.join(workspace, "skills", "release-notes", "SKILL.md"), "---\ndescription: Use when asked to draft release notes.\n---\n\n# Release notes\n");
  fs.writeFileSync(path.join(workspace, "AGENTS.md"), `# Agents\n\n${"Follow the house rules. ".repeat(100)}\n`);
  const config = JSON.parse(fakeModelConfig(model, stateDir));
  config.agents.defaults.bootstrapMaxChars = 500;
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
});
afterAll(async () => {
  await gw?.stop();
  await model?.close();
});

describe("context the prompt leaves out", () => {
  it("a skipped skill and a truncated bootstrap file are logged with their file; the turn is answered", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const final = await askAndWait(sock, "main", "hello");
      expect(final.payload.state).toBe("final");
      await gw.waitForOutput(`${path.join(workspace, "skills", "release-notes", "SKILL.md")}: skipped`, 10_000);
      await gw.waitForOutput("AGENTS.md: truncated to", 10_000);
    } finally {
      sock.close();
    }
  });
});

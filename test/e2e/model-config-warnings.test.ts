import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

let gw: GatewayProcess;
let file: string;
beforeAll(async () => {
  const stateDir = makeTempDir();
  gw = await startGateway({
    stateDir,
    configFile: {
      name: "openclaw.yaml",
      content: [
        "agents:",
        "  defaults:",
        "    model: { primary: nope, fallbacks: [nosuch/model-x] }",
        "  entries:",
        "    helper: { model: anthropic/claude-sonnet-4-5 }",
        "    scout: { model: ghost/one }",
        "",
      ].join("\n"),
    },
  });
  file = path.join(stateDir, "openclaw.yaml");
});
afterAll(async () => {
  await gw?.stop();
});

describe("a configured model no turn could use is named when the gateway starts or reloads", () => {
  it("at start: each unusable ref with its key and the fix; a usable one is not named", async () => {
    await gw.waitForOutput(/unusable model: the model of agent \\"scout\\"/, 10_000);
    const out = gw.output();
    expect(out).toContain('unusable model: agents.defaults.model: Model \\"nope\\" names no provider');
    expect(out).toContain('unusable model: agents.defaults.model.fallbacks: Unknown model provider \\"nosuch\\"');
    expect(out).toContain('unusable model: the model of agent \\"scout\\": Unknown model provider \\"ghost\\"');
    expect(out).not.toMatch(/unusable model:[^\n]*helper/);
    expect(out.match(/unusable model/g)).toHaveLength(3);
  });

  it("on reload: a fixed config says nothing more, a newly broken ref is named", async () => {
    const before = (gw.output().match(/unusable model/g) ?? []).length;
    fs.writeFileSync(file, "agents:\n  defaults:\n    model: anthropic/claude-sonnet-4-5\n");
    await gw.waitForOutput(/"msg":"config reloaded"/, 10_000);
    expect((gw.output().match(/unusable model/g) ?? []).length).toBe(before);
    fs.writeFileSync(file, "agents:\n  defaults:\n    model: typo-provider/x\n");
    await gw.waitForOutput(/unusable model: agents.defaults.model: Unknown model provider \\"typo-provider\\"/, 10_000);
  });
});

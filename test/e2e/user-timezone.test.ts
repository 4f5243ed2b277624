import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startFakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, systemPromptOf } from "../helpers/model-request.js";
import { openOperator } from "../helpers/ws-client.js";

/** `agents.defaults.userTimezone` through a real gateway: the system prompt's date and time are the user's, not the host's. */
describe("agents.defaults.userTimezone", { timeout: 60_000 }, () => {
  it("puts the user's zone in the prompt's current date and time", async () => {
    const server = await startFakeModelServer();
    const stateDir = makeTempDir();
    const config = JSON.parse(fakeModelConfig(server, stateDir));
    config.agents.defaults.userTimezone = "Asia/Kathmandu";
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const key = randomUUID();
      server.enqueue({ text: "ok" });
      expect((await sock.request("chat.send", { sessionKey: "tz", message: "what time is it?", idempotencyKey: key })).ok).toBe(true);
      await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 20_000);
      const prompt = systemPromptOf(chatRequests(server.requests).at(-1)!);
      expect(prompt).toMatch(/## Current Date & Time\n\d{4}-\d\d-\d\d \d\d:\d\d \w+, time zone Asia\/Kathmandu \(UTC\+05:45\)/);
    } finally {
      sock.close();
      await gw.stop();
      await server.close();
    }
  });
});

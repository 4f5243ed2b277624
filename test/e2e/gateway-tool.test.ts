import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { askAndWait } from "../helpers/chat-session.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { chatRequests, lastMessageOf, lastToolResultOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";

const REDACTED = "__OPENCLAW_REDACTED__";

const fakes = useFakeModelGateway({ operator: true });

/** The operator (the owner) asks; the model calls the gateway tool with `args`; returns what the tool answered. */
async function gatewayCall(sessionKey: string, args: Record<string, unknown>) {
  const prompt = `read config ${sessionKey}`;
  fakes.model.setResponder((req) => {
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text === prompt) return { toolCalls: [{ name: "gateway", arguments: args }] };
    return { text: "done" };
  });
  await askAndWait(fakes.sock, sessionKey, prompt, 10_000);
  const request = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).role === "tool" && lastUserTextOf(r) === prompt)!;
  return { result: lastToolResultOf(request)!, tools: toolNamesOf(request) };
}

describe("the gateway tool", () => {
  it("config.get reads one part of the config with the file's hash; secrets stay redacted", async () => {
    const file = path.join(fakes.stateDir, "openclaw.json");
    const fileHash = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    const { result, tools } = await gatewayCall("gw-get", { action: "config.get", path: "models.providers.fake" });
    expect(tools).toContain("gateway");
    expect(result).toMatchObject({ ok: true, result: { hash: fileHash, path: "models.providers.fake", config: { apiKey: REDACTED, api: "openai-completions" } } });
    expect(JSON.stringify(result)).not.toContain("sk-fake");
  });

  it("config.get without a path answers the whole snapshot (a small config fits in one answer), redacted", async () => {
    const { result } = await gatewayCall("gw-whole", { action: "config.get" });
    expect(result).toMatchObject({ ok: true, result: { exists: true, valid: true, format: "json" } });
    expect(result.result.config.models.providers.fake.apiKey).toBe(REDACTED);
    expect(JSON.stringify(result)).not.toContain("sk-fake");
  });

  it("a path that is not set is an error naming it", async () => {
    const { result } = await gatewayCall("gw-missing", { action: "config.get", path: "channels.matrix" });
    expect(result).toMatchObject({ error: "CONFIG_PATH_NOT_FOUND" });
    expect(result.message).toContain("channels.matrix");
  });

  it("config.schema.lookup says what a key holds and whether changing it needs a restart", async () => {
    const { result } = await gatewayCall("gw-schema", { action: "config.schema.lookup", path: "gateway.port" });
    expect(result).toMatchObject({ ok: true, result: { path: "gateway.port", reloadKind: "restart", schema: { type: "integer" } } });
    const missing = await gatewayCall("gw-schema-missing", { action: "config.schema.lookup", path: "gateway.nope" });
    expect(missing.result).toMatchObject({ error: "CONFIG_SCHEMA_PATH_NOT_FOUND" });
  });
});

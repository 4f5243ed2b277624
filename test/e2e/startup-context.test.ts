import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `agents.defaults.startupContext` through a real gateway: with `applyOn: ["new"]` only the first
 * run after `/new` is offered the daily notes (not after `/reset`), each file cut at
 * `maxFileChars` with a pointer to the rest, and `dailyMemoryDays: 3` reaches back two days.
 */

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

const day = (back: number) => {
  const d = new Date(Date.now() - back * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const LONG_NOTE = `- the release train leaves on Fridays ${"and more detail ".repeat(20)}`;
const OLD_NOTE = "- the office moved to the third floor";

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
  const config = JSON.parse(fakeModelConfig(server, stateDir, { memory }));
  config.agents.defaults.startupContext = { applyOn: ["new"], dailyMemoryDays: 3, maxFileChars: 60 };
  const notes = path.join(config.agents.defaults.workspace, "memory");
  fs.mkdirSync(notes, { recursive: true });
  fs.writeFileSync(path.join(notes, `${day(0)}.md`), LONG_NOTE);
  fs.writeFileSync(path.join(notes, `${day(2)}-office.md`), OLD_NOTE);
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const systemPrompts = (): string[] =>
  server.requests.filter((r: RecordedRequest) => r.path === "/v1/chat/completions").map((r) => (r.body as { messages: { content: string }[] }).messages[0]!.content);

async function send(message: string): Promise<void> {
  const key = randomUUID();
  const res = await sock.request("chat.send", { sessionKey: "notes", message, idempotencyKey: key });
  expect(res.ok).toBe(true);
  if (message.startsWith("/")) return;
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 20_000);
}

describe("startupContext", { timeout: 60_000 }, () => {
  it("offers the notes only after the resets applyOn names, cut per file, as far back as dailyMemoryDays", async () => {
    await send("/reset");
    server.enqueue({ text: "ok" });
    await send("after reset");
    expect(systemPrompts().at(-1)).not.toContain("## Recent daily notes");

    await send("/new");
    server.enqueue({ text: "ok" });
    await send("after new");
    const prompt = systemPrompts().at(-1)!;
    expect(prompt).toContain("## Recent daily notes\nNotes of the last 3 days from memory/");
    expect(prompt).toContain(`### memory/${day(0)}.md\n${LONG_NOTE.slice(0, 60)}\n[… cut; read memory/${day(0)}.md for the rest]`);
    expect(prompt).toContain(`### memory/${day(2)}-office.md\n${OLD_NOTE}`);
    expect(prompt.indexOf(day(0))).toBeLessThan(prompt.indexOf(day(2)));

    server.enqueue({ text: "ok" });
    await send("the next turn");
    expect(systemPrompts().at(-1)).not.toContain("## Recent daily notes");
  });
});

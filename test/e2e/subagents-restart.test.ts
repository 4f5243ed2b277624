import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { chatRequests, isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";

/**
 * A restart while a child runs — a crash (SIGKILL) and a clean stop (SIGTERM) — must still end
 * in exactly one announcement for it, and an announcement already delivered is never delivered
 * again by a later start.
 */

let server: FakeModelServer;
let stateDir: string;
let gw: GatewayProcess | undefined;
let sock: TestSocket | undefined;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir));
  server.setResponder((req) => {
    if (isSubagentRequest(req)) return { text: "never finishes", delayMs: 60_000 };
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text.startsWith("start job")) return { toolCalls: [{ name: "sessions_spawn", arguments: { task: last.text, label: last.text } }] };
    if (last.role === "tool") return { text: "started" };
    return { text: "noted the result" };
  });
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await server?.close();
});

async function boot(): Promise<void> {
  gw = await startGateway({ stateDir });
  sock = (await openOperator(gw.url, gw.token)).sock;
}

async function startJob(label: string): Promise<void> {
  const key = randomUUID();
  const before = chatRequests(server.requests).filter(isSubagentRequest).length;
  await sock!.request("chat.send", { sessionKey: "restart-parent", message: label, idempotencyKey: key });
  await sock!.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 10_000);
  // The child's model call has begun (and will not end by itself).
  const deadline = Date.now() + 10_000;
  while (chatRequests(server.requests).filter(isSubagentRequest).length === before) {
    if (Date.now() > deadline) throw new Error("the child never called the model");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function announcementsFor(label: string): Promise<string[]> {
  const messages: any[] = (await sock!.request("chat.history", { sessionKey: "restart-parent", limit: 1000 })).payload.messages;
  return messages
    .filter((m) => m.role === "user" && m.provenance?.kind === "internal_system")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((b: any) => b.text).join("")))
    .filter((text) => text.includes(`task: ${label}\n`));
}

async function waitForAnnouncement(label: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await announcementsFor(label);
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a restart while a child runs", () => {
  it("a crash (SIGKILL) still ends in exactly one announcement, saying the run was interrupted", async () => {
    await boot();
    await startJob("start job crash");
    sock!.close();
    await gw!.stop("SIGKILL");
    await boot();
    const found = await waitForAnnouncement("start job crash");
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("status: failed: the run was interrupted by a gateway restart before it finished");
    expect(found[0]).toContain("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\n(no output)\n<<<END_UNTRUSTED_CHILD_RESULT>>>");
  });

  it("a clean stop (SIGTERM) does the same, and neither announcement is delivered twice by a later start", async () => {
    await startJob("start job graceful");
    sock!.close();
    expect(await gw!.stop("SIGTERM")).toBe(0);
    await boot();
    const graceful = await waitForAnnouncement("start job graceful");
    expect(graceful).toHaveLength(1);
    expect(graceful[0]).toContain("status: failed: the run was interrupted by a gateway restart before it finished");
    // One more restart: both announcements were delivered already; nothing is repeated.
    sock!.close();
    expect(await gw!.stop("SIGTERM")).toBe(0);
    await boot();
    await new Promise((r) => setTimeout(r, 500));
    expect(await announcementsFor("start job crash")).toHaveLength(1);
    expect(await announcementsFor("start job graceful")).toHaveLength(1);
    const listed = await sock!.request("chat.send", { sessionKey: "restart-parent", message: "/subagents list", idempotencyKey: randomUUID() });
    expect(listed.payload.reply.split("\n").filter((line: string) => line.includes("[error]"))).toHaveLength(2);
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { openOperator } from "../helpers/ws-client.js";

const fakes = useFakeModelGateway();

const messagesOf = (frames: { event?: string; payload?: any }[], sessionKey: string) =>
  frames.filter((f) => f.event === "session.message" && f.payload.sessionKey === sessionKey).map((f) => f.payload);

describe("sessions.messages.subscribe and session.message", () => {
  it("a follower sees every message another client's turn writes, as chat.history rows with their ids", async () => {
    const follower = await openOperator(fakes.gw.url, fakes.gw.token);
    const other = await openOperator(fakes.gw.url, fakes.gw.token);
    const bystander = await openOperator(fakes.gw.url, fakes.gw.token);
    const subscribed = await follower.sock.request("sessions.messages.subscribe", { key: "followed" });
    expect(subscribed.payload).toEqual({ subscribed: true, key: "agent:main:followed" });
    // The bystander follows another session only.
    await bystander.sock.request("sessions.messages.subscribe", { key: "elsewhere" });

    fakes.model.enqueue({ toolCalls: [{ id: "call_ls_1", name: "exec", arguments: { command: "echo listed" } }] }, { text: "Listed it." });
    const runId = randomUUID();
    await other.sock.request("chat.send", { sessionKey: "followed", message: "list the files", idempotencyKey: runId });
    await follower.sock.waitFor((f) => f.event === "session.message" && f.payload.message.role === "assistant" && f.payload.message.content?.[0]?.text === "Listed it.", 15_000);

    const seen = messagesOf(follower.sock.frames, "agent:main:followed");
    expect(seen.map((m) => m.message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(seen[0]).toMatchObject({
      sessionKey: "agent:main:followed",
      agentId: "main",
      message: { role: "user", content: [{ type: "text", text: "list the files" }], idempotencyKey: runId },
    });
    expect(seen[1].message.content.some((b: any) => b.type === "toolCall" && b.name === "exec")).toBe(true);
    expect(seen[2].message).toMatchObject({ role: "toolResult", toolName: "exec" });
    for (const m of seen.slice(1)) expect(m.runId).toBe(runId);
    // The ids are the ones chat.history gives the same rows.
    const history = await follower.sock.request("chat.history", { sessionKey: "followed" });
    expect(seen.map((m) => m.messageId)).toEqual(history.payload.messages.map((m: any) => m.__openclaw.id));
    expect(seen.map((m) => m.message.__openclaw.id)).toEqual(seen.map((m) => m.messageId));
    expect(messagesOf(bystander.sock.frames, "agent:main:followed")).toEqual([]);
    expect(other.sock.frames.some((f) => f.event === "session.message")).toBe(false);

    // After unsubscribing, the next turn brings nothing.
    expect((await follower.sock.request("sessions.messages.unsubscribe", { key: "followed" })).payload).toEqual({ subscribed: false, key: "agent:main:followed" });
    const before = messagesOf(follower.sock.frames, "agent:main:followed").length;
    fakes.model.enqueue({ text: "Again." });
    const second = randomUUID();
    await other.sock.request("chat.send", { sessionKey: "followed", message: "once more", idempotencyKey: second });
    await follower.sock.waitFor((f) => f.event === "chat" && f.payload.runId === second && f.payload.state === "final", 15_000);
    expect(messagesOf(follower.sock.frames, "agent:main:followed")).toHaveLength(before);
    for (const c of [follower, other, bystander]) c.sock.close();
  });

  it("refuses what it cannot honour", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    const approvals = await sock.request("sessions.messages.subscribe", { key: "main", includeApprovals: true });
    expect(approvals.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(approvals.error.message).toMatch(/not supported: includeApprovals/);
    const unknown = await sock.request("sessions.messages.subscribe", { key: "main", agentId: "nobody" });
    expect(unknown.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(unknown.error.message).toMatch(/nobody/);
    expect((await sock.request("sessions.messages.subscribe", {})).error).toMatchObject({ code: "INVALID_REQUEST" });
    sock.close();
  });
});

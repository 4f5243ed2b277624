import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { ChatCommandRegistry, type ChatCommandContext } from "../../../src/conversations/commands/chat-command-registry.js";
import { CHAT_COMMANDS } from "../../../src/conversations/commands/chat-commands.js";

function context(overrides: Partial<ChatCommandContext> = {}): ChatCommandContext {
  const stopped: string[] = [];
  return {
    surface: "channel",
    sessionKey: "agent:main:main",
    method: "channel",
    senderIsOwner: false,
    config: () => ({}) as ReturnType<ChatCommandContext["config"]>,
    sessions: {} as ChatCommandContext["sessions"],
    conversations: {
      stop: (key: string) => (stopped.push(key), { runIds: ["r1"], subagents: 2 }),
      reset: () => ({ kind: "reset" }),
      isActive: () => false,
    } as unknown as ChatCommandContext["conversations"],
    ...overrides,
  };
}

describe("ChatCommandRegistry", () => {
  it("matches a standalone command by name, alias or bare word, any case, with its arguments", () => {
    expect(CHAT_COMMANDS.match("/STOP", "operator")).toMatchObject({ name: "stop", args: "" });
    expect(CHAT_COMMANDS.match(" /cancel now ", "channel")).toMatchObject({ name: "stop", args: "now" });
    expect(CHAT_COMMANDS.match("Stop", "channel")).toMatchObject({ name: "stop" });
    expect(CHAT_COMMANDS.match("/subagents steer #1 go\nleft", "operator")).toMatchObject({ name: "subagents", args: "steer #1 go\nleft" });
    expect(CHAT_COMMANDS.match("stop it", "channel")).toBeUndefined();
    expect(CHAT_COMMANDS.match("please /stop", "channel")).toBeUndefined();
    expect(CHAT_COMMANDS.match("/weather", "channel")).toBeUndefined();
  });

  it("runs /bash for a message starting with its prefix `!`, the rest being the command", () => {
    expect(CHAT_COMMANDS.match("! ls -la", "channel")).toMatchObject({ name: "bash", args: "ls -la" });
    expect(CHAT_COMMANDS.match("!echo hi", "operator")).toMatchObject({ name: "bash", args: "echo hi" });
    expect(CHAT_COMMANDS.match("/bash uname", "channel")).toMatchObject({ name: "bash", args: "uname" });
    expect(CHAT_COMMANDS.match("hello!", "channel")).toBeUndefined();
    const registry = new ChatCommandRegistry();
    registry.register({ name: "one", prefix: "!", description: "", handler: () => ({ kind: "reply", text: "" }) });
    expect(() => registry.register({ name: "two", prefix: "!", description: "", handler: () => ({ kind: "reply", text: "" }) })).toThrow("chat command prefix registered twice: !");
  });

  it("answers the same commands on every surface, keeping chat-only ones (thread focus) off operator clients", () => {
    expect(CHAT_COMMANDS.match("/status", "channel")).toMatchObject({ name: "status" });
    expect(CHAT_COMMANDS.match("/status", "operator")).toMatchObject({ name: "status" });
    expect(CHAT_COMMANDS.match("/focus #1", "operator")).toBeUndefined();
  });

  it("refuses an owner-only command to others and runs it for the owner; /queue is kept on the session row", async () => {
    const sessions = new SessionStore(fs.mkdtempSync(path.join(os.tmpdir(), "chat-commands-")));
    const command = CHAT_COMMANDS.match("/queue collect", "channel")!;
    expect(await CHAT_COMMANDS.run(command, context({ sessions }))).toEqual({ kind: "reply", text: "/queue is for the bot owner only (commands.ownerAllowFrom)." });
    expect(sessions.get("agent:main:main")).toBeUndefined();
    expect(await CHAT_COMMANDS.run(command, context({ sessions, senderIsOwner: true }))).toEqual({ kind: "reply", text: "Queue mode for this session: collect." });
    expect(sessions.get("agent:main:main")?.queueMode).toBe("collect");
    const back = CHAT_COMMANDS.match("/queue default", "channel")!;
    expect(await CHAT_COMMANDS.run(back, context({ sessions, senderIsOwner: true }))).toEqual({ kind: "reply", text: "Queue mode for this session: back to the default." });
    expect(sessions.get("agent:main:main")?.queueMode).toBeUndefined();
    sessions.close();
  });

  it("reports /stop and /new as outcomes each surface words its own way", async () => {
    expect(await CHAT_COMMANDS.run(CHAT_COMMANDS.match("/stop", "channel")!, context())).toEqual({ kind: "stopped", runIds: ["r1"], subagents: 2 });
    expect(await CHAT_COMMANDS.run(CHAT_COMMANDS.match("/new", "operator")!, context({ surface: "operator" }))).toEqual({ kind: "reset", outcome: { kind: "reset" } });
  });

  it("refuses a name or bare word registered twice, and a name that is not a word", () => {
    const registry = new ChatCommandRegistry();
    const handler = () => ({ kind: "reply" as const, text: "" });
    registry.register({ name: "one", aliases: ["uno"], bareWords: ["one"], description: "", handler });
    expect(() => registry.register({ name: "UNO", description: "", handler })).toThrow("chat command registered twice: /uno");
    expect(() => registry.register({ name: "two", bareWords: ["ONE"], description: "", handler })).toThrow("chat command word registered twice: ONE");
    expect(() => registry.register({ name: "two words", description: "", handler })).toThrow('chat command name "two words" is not a word');
  });

  it("lists a surface's commands for /help", () => {
    const help = CHAT_COMMANDS.helpText("channel");
    expect(help.split("\n")[0]).toBe("Commands:");
    expect(help).toContain("/stop (/abort, /cancel) — stop the running reply");
    expect(help).toContain("/queue <mode> — how messages sent during a reply are handled: steer | followup | collect | interrupt | default (owner only)");
    expect(CHAT_COMMANDS.helpText("operator")).not.toContain("/focus");
  });
});

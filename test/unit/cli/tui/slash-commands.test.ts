import { describe, expect, it } from "vitest";
import { agentOfSessionKey, expandSessionKey, parseTuiInput } from "../../../../src/cli/tui/slash-commands.js";

describe("parseTuiInput", () => {
  it("a blank line is nothing; text is a message, trimmed", () => {
    expect(parseTuiInput("")).toEqual({ kind: "empty" });
    expect(parseTuiInput("   ")).toEqual({ kind: "empty" });
    expect(parseTuiInput("  hello there ")).toEqual({ kind: "message", text: "hello there" });
  });

  it("the TUI's own commands, with their arguments and aliases, any case", () => {
    expect(parseTuiInput("/help")).toEqual({ kind: "help" });
    expect(parseTuiInput("/agents")).toEqual({ kind: "agents" });
    expect(parseTuiInput("/agent")).toEqual({ kind: "agents" });
    expect(parseTuiInput("/agent  work ")).toEqual({ kind: "agent", id: "work" });
    expect(parseTuiInput("/sessions")).toEqual({ kind: "sessions" });
    expect(parseTuiInput("/session")).toEqual({ kind: "sessions" });
    expect(parseTuiInput("/session agent:work:main")).toEqual({ kind: "session", key: "agent:work:main" });
    expect(parseTuiInput("/new")).toEqual({ kind: "new" });
    expect(parseTuiInput("/abort")).toEqual({ kind: "abort" });
    expect(parseTuiInput("/exit")).toEqual({ kind: "exit" });
    expect(parseTuiInput("/quit")).toEqual({ kind: "exit" });
    expect(parseTuiInput("/EXIT")).toEqual({ kind: "exit" });
  });

  it("/new with text after it is refused with the reason (the session starts empty)", () => {
    expect(parseTuiInput("/new hi")).toMatchObject({ kind: "usage" });
  });

  it("every other /command is a message for the gateway, as typed", () => {
    for (const line of ["/status", "/model fake/other", "/think low", "/verbose on", "/reset", "/stop", "/whatever x"]) {
      expect(parseTuiInput(line)).toEqual({ kind: "message", text: line });
    }
    // A prefix of a TUI command is not that command.
    expect(parseTuiInput("/newer")).toEqual({ kind: "message", text: "/newer" });
  });

  it("a line with a newline is a message even when it starts with a command", () => {
    expect(parseTuiInput("/exit\nplease")).toEqual({ kind: "message", text: "/exit\nplease" });
  });
});

describe("expandSessionKey", () => {
  it("a bare key belongs to the current agent: main is agent:<current>:main", () => {
    expect(expandSessionKey("main", "main")).toBe("agent:main:main");
    expect(expandSessionKey("main", "research")).toBe("agent:research:main");
    expect(expandSessionKey(" bugfix ", "work")).toBe("agent:work:bugfix");
  });

  it("an agent: key names its own agent and is taken as it is", () => {
    expect(expandSessionKey("agent:other:main", "main")).toBe("agent:other:main");
    expect(expandSessionKey("agent:main:telegram:dm:42", "work")).toBe("agent:main:telegram:dm:42");
  });

  it("agentOfSessionKey reads the agent back", () => {
    expect(agentOfSessionKey("agent:work:main")).toBe("work");
    expect(agentOfSessionKey("main")).toBeUndefined();
  });
});

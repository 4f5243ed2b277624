import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { type CliProcess, makeTempDir, runCli, spawnCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, requestMessages } from "../helpers/reliability.js";
import { EXITED, killTmuxSession, startCliInTmux, tmux } from "../helpers/tmux-terminal.js";

/**
 * This CLI's `openclaw tui` (the built bin) in a real terminal, a detached tmux session of a
 * fixed size, against a gateway process and the fake model: keys typed with `send-keys`, the
 * screen read with `capture-pane`, every step waiting for what the screen shows.
 */
const SESSION = `openclaw-tui-e2e-${process.pid}`;
const BAD_TOKEN_SESSION = `${SESSION}-badtoken`;

let model: FakeModelServer;
let gw: GatewayProcess;
/** The gateway started again on the same port and state dir (the reconnect test). */
let restarted: CliProcess | undefined;

/** The screen as text, one row a line (the TUI wraps its own lines); `escapes` keeps the colour sequences the terminal holds. */
const screen = (session = SESSION, escapes = false) => tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", session);

async function waitForScreen(pattern: RegExp, what: string, session = SESSION, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen(session);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the TUI never showed ${what} (${pattern}); the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Types `text` into the input line and, once the screen shows it there, presses Enter. */
async function submit(text: string): Promise<void> {
  await waitForScreen(/^connected \| idle/m, "an idle session before typing");
  tmux("send-keys", "-t", SESSION, "-l", text);
  await waitForScreen(new RegExp(`^> ${escapeRegExp(text)}\\s*$`, "m"), `"${text}" in the input line`);
  tmux("send-keys", "-t", SESSION, "Enter");
}

/** Starts the TUI in a new tmux session; the shell around it prints its exit code and keeps the pane. */
function startTui(session: string, token: string): void {
  startCliInTmux(session, ["tui", "--url", gw.url, "--token", token]);
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => {
    const said = lastUserText(req);
    const last = (req.body?.messages ?? []).at(-1);
    if (said.startsWith("use a tool")) return last?.role === "tool" ? { text: "the tool answered" } : { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] };
    if (said.startsWith("slow")) return { text: `slow reply begins ${"and goes on ".repeat(30)}SLOW-END`, textChunks: 60, chunkDelayMs: 250 };
    // Untrusted model text: a colour change, a window title and a clear-screen.
    if (said.startsWith("ansi")) return { text: "look \x1b[31mRED\x1b[0m \x1b]0;pwned\x07 \x1b[2J done" };
    return { text: `fake model heard: ${said}`, usage: { input: 1200, output: 40 } };
  });
  const stateDir = makeTempDir();
  // Two agents: `main` (the default) and `work`, for /agent.
  const config = JSON.parse(fakeModelConfig(model, stateDir));
  config.agents.list = [{ id: "main", default: true }, { id: "work" }];
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  // A turn before the TUI starts: its history is what the TUI shows first.
  const seeded = await runCli(["agent", "-m", "seeded question", "--url", gw.url, "--token", gw.token ?? ""], {});
  expect(seeded.output).toMatch(/fake model heard: seeded question/);
  startTui(SESSION, gw.token ?? "");
}, 60_000);

afterAll(async () => {
  for (const session of [SESSION, BAD_TOKEN_SESSION]) killTmuxSession(session);
  await restarted?.stop("SIGKILL");
  await gw?.stop("SIGKILL");
  await model?.close();
});

describe("openclaw tui in tmux against a gateway", () => {
  it("shows the header, the session's history, the status line and the footer at start", async () => {
    const text = await waitForScreen(/^connected \| idle/m, "that it connected", SESSION, 60_000);
    expect(text).toMatch(/^openclaw tui \| ws:\/\/127\.0\.0\.1:\d+ \| agent main \| session agent:main:main/m);
    expect(text).toMatch(/^you> seeded question$/m);
    expect(text).toMatch(/^fake model heard: seeded question$/m);
    expect(text).toMatch(/^agent main \| model fake\/fake-model \| think \S+ \| tokens 1\.2k in\/40 out \| ctx \S+ \| session agent:main:main$/m);
  });

  it("sends a typed message to the model and shows its streamed reply", async () => {
    const before = chatRequests(model).length;
    await submit("hello from tmux");
    await waitForScreen(/^fake model heard: hello from tmux$/m, "the model's answer");
    expect(lastUserText(chatRequests(model)[before])).toBe("hello from tmux");
    await waitForScreen(/tokens 2\.4k in\/80 out/, "the footer's token counts after the turn");
  });

  it("forwards /status to the gateway and shows its answer; no model request", async () => {
    const before = model.requests.length;
    await submit("/status");
    const text = await waitForScreen(/Status · agent:main:main/, "the gateway's status card");
    expect(text).toMatch(/Model: fake\/fake-model/);
    expect(model.requests.length).toBe(before);
  });

  it("/goal starts the session's goal, which the footer shows in OpenClaw's words until it is cleared", async () => {
    await submit("/goal tidy the garage");
    await waitForScreen(/^agent main \| model fake\/fake-model \| Pursuing goal \| think /m, "the active goal in the footer");
    await submit("/goal pause");
    await waitForScreen(/^agent main \| model fake\/fake-model \| Goal paused \(\/goal resume\) \| think /m, "the paused goal in the footer");
    await submit("/goal clear");
    await waitForScreen(/^agent main \| model fake\/fake-model \| think /m, "the footer without a goal");
  });

  it("shows escape sequences in the model's text as inert characters", async () => {
    await submit("ansi please");
    const text = await waitForScreen(/done\s*$/m, "the reply with escapes");
    expect(text).toContain("look ^[[31mRED^[[0m ^[]0;pwned^G ^[[2J done");
    // Nothing turned red, and the screen was not cleared: the history above is still there.
    expect(screen(SESSION, true)).not.toContain("\x1b[31m");
    expect(text).toMatch(/^fake model heard: hello from tmux$/m);
  });

  it("Esc aborts a slow reply while it streams", async () => {
    await submit("slow please");
    await waitForScreen(/^slow reply begins/m, "the slow reply streaming");
    await waitForScreen(/^connected \| streaming/m, "the streaming status");
    tmux("send-keys", "-t", SESSION, "Escape");
    const text = await waitForScreen(/^\* reply aborted$/m, "the abort notice");
    expect(text).not.toContain("SLOW-END");
    await waitForScreen(/^connected \| idle/m, "idle after the abort");
  });

  it("/new switches to a fresh session: the next model request has no earlier history", async () => {
    await submit("/new");
    const text = await waitForScreen(/^\* new session: agent:main:tui-[0-9a-f-]+$/m, "the new session notice");
    expect(text).not.toMatch(/seeded question/);
    expect(text).toMatch(/^openclaw tui \| .* \| session agent:main:tui-/m);
    const before = chatRequests(model).length;
    await submit("first in the new session");
    await waitForScreen(/^fake model heard: first in the new session$/m, "the answer in the new session");
    const users = requestMessages(chatRequests(model)[before]).filter((m) => m.role === "user");
    expect(users.map((m) => m.text)).toEqual(["first in the new session"]);
  });

  it("shows one line per tool call, with its outcome", async () => {
    await submit("use a tool");
    const text = await waitForScreen(/^the tool answered$/m, "the answer after the tool call");
    expect(text).toMatch(/^ {2}tool read \{"path":"notes\.txt"\} \((done|failed)\)$/m);
  });

  it("/session main goes back to agent:main:main with its history; /sessions lists both", async () => {
    await submit("/session main");
    const text = await waitForScreen(/^\* session: agent:main:main$/m, "the switch notice");
    expect(text).toMatch(/^openclaw tui \| .* \| session agent:main:main$/m);
    expect(text).toMatch(/^you> seeded question$/m);
    await submit("/sessions");
    const listed = await waitForScreen(/^\* sessions of agent main/m, "the session list");
    expect(listed).toMatch(/^ {4}agent:main:main .*\[current\]$/m);
    expect(listed).toMatch(/^ {4}agent:main:tui-[0-9a-f-]+ /m);
  });

  it("shows a message another client sends to the session as it arrives, then its streamed reply", async () => {
    await waitForScreen(/^openclaw tui \| .* \| session agent:main:main$/m, "the main session");
    const other = await runCli(["agent", "-m", "from another client", "--url", gw.url, "--token", gw.token ?? ""], {});
    expect(other.output).toMatch(/fake model heard: from another client/);
    const text = await waitForScreen(/^fake model heard: from another client$/m, "the other client's reply");
    // Once, before its reply.
    expect(text.match(/^you> from another client$/gm)).toHaveLength(1);
    expect(text.indexOf("you> from another client")).toBeLessThan(text.indexOf("fake model heard: from another client"));
    // The TUI's own message is not shown twice.
    await submit("my own words");
    const after = await waitForScreen(/^fake model heard: my own words$/m, "the answer to the TUI's own message");
    expect(after.match(/^you> my own words$/gm)).toHaveLength(1);
  });

  it("redraws for a new terminal size", async () => {
    tmux("resize-window", "-t", SESSION, "-x", "60", "-y", "30");
    const text = await waitForScreen(/^-{59}$/m, "the frame at 60 columns");
    expect(text.split("\n").every((line) => line.length <= 60)).toBe(true);
    expect(text).toMatch(/^connected \| idle$/m);
    tmux("resize-window", "-t", SESSION, "-x", "120", "-y", "40");
    await waitForScreen(/^-{119}$/m, "the frame at 120 columns");
  });

  it("shows the lost connection, reconnects when the gateway is back, and goes on in the same session", { timeout: 60_000 }, async () => {
    const port = gw.port;
    await gw.stop("SIGTERM");
    await waitForScreen(/^reconnecting/m, "the reconnecting status");
    restarted = spawnCli(["gateway", "run", "--port", String(port)], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });
    await restarted.waitForOutput(/"msg":"gateway listening"/, 15_000);
    const text = await waitForScreen(/^\* reconnected to the gateway$/m, "the reconnect notice");
    expect(text).toMatch(/^openclaw tui \| .* \| session agent:main:main$/m);
    expect(text).toMatch(/^you> seeded question$/m);
    await submit("after the restart");
    await waitForScreen(/^fake model heard: after the restart$/m, "an answer after the restart");
  });

  it("/agents lists the agents; /agent work opens agent:work:main; an unknown agent is refused", async () => {
    await submit("/agents");
    const listed = await waitForScreen(/^\* agents \(switch with \/agent <id>\):$/m, "the agent list");
    expect(listed).toMatch(/^ {4}main \[default, current\]$/m);
    expect(listed).toMatch(/^ {4}work$/m);
    await submit("/agent nobody");
    await waitForScreen(/^! unknown agent "nobody"; the gateway's agents: main, work$/m, "the refusal");
    await submit("/agent work");
    const text = await waitForScreen(/^\* agent: work$/m, "the switch notice");
    expect(text).toMatch(/^openclaw tui \| .* \| agent work \| session agent:work:main$/m);
    expect(text).not.toMatch(/seeded question/);
    await submit("hello work");
    await waitForScreen(/^fake model heard: hello work$/m, "the work agent's answer");
  });

  it("/reset is run by the gateway: the session starts over and the TUI shows it empty", async () => {
    await submit("/session agent:main:main");
    // The newest exchange of the main session (the reconnect test's) ends its history on screen.
    await waitForScreen(/^fake model heard: after the restart$/m, "the main session's history");
    await submit("/reset");
    const text = await waitForScreen(/^\* session reset: agent:main:main$/m, "the reset notice");
    expect(text).not.toMatch(/after the restart/);
    const before = chatRequests(model).length;
    await submit("after the reset");
    await waitForScreen(/^fake model heard: after the reset$/m, "the answer after the reset");
    expect(
      requestMessages(chatRequests(model)[before])
        .filter((m) => m.role === "user")
        .map((m) => m.text),
    ).toEqual(["after the reset"]);
  });

  it("a pasted block of lines stays in the input (bracketed paste) and goes as one message", async () => {
    await waitForScreen(/^connected \| idle/m, "idle before pasting");
    tmux("set-buffer", "-b", "tui-e2e", "pasted one\npasted two");
    tmux("paste-buffer", "-p", "-d", "-b", "tui-e2e", "-t", SESSION);
    await waitForScreen(/^> pasted one\u21b5pasted two$/m, "the pasted lines in the input line");
    const before = chatRequests(model).length;
    tmux("send-keys", "-t", SESSION, "Enter");
    await waitForScreen(/^fake model heard: pasted one\npasted two$/m, "the answer to the pasted lines");
    expect(chatRequests(model)).toHaveLength(before + 1);
    expect(lastUserText(chatRequests(model)[before])).toBe("pasted one\npasted two");
  });

  it("Ctrl+C clears the input and asks for a second press; it does not exit", async () => {
    await waitForScreen(/^connected \| idle/m, "idle before typing");
    tmux("send-keys", "-t", SESSION, "-l", "a draft");
    await waitForScreen(/^> a draft$/m, "the draft in the input line");
    tmux("send-keys", "-t", SESSION, "C-c");
    const text = await waitForScreen(/^\* input cleared; press Ctrl\+C again to exit/m, "the exit hint");
    expect(text).toMatch(/^>\s*$/m);
    expect(text).not.toContain(EXITED);
  });

  it("the pickers' keys only say they are not supported here", async () => {
    tmux("send-keys", "-t", SESSION, "C-l");
    await waitForScreen(/^\* Ctrl\+L \(model picker\) is not supported in this TUI; use \/agent, \/session and \/model instead$/m, "the notice");
    tmux("send-keys", "-t", SESSION, "C-p");
    const text = await waitForScreen(/^\* Ctrl\+P \(session picker\) is not supported/m, "the notice");
    expect(text).toMatch(/^connected \| idle$/m);
  });

  it("Ctrl+D exits with code 0 and gives the terminal back", async () => {
    await waitForScreen(/^connected \| idle/m, "idle before Ctrl+D");
    tmux("send-keys", "-t", SESSION, "C-d");
    const text = await waitForScreen(new RegExp(`${EXITED} \\d+`), "the exit code");
    expect(text).toContain(`${EXITED} 0`);
    // The alternate screen is left: the shell's screen, not the TUI's frame, is what remains.
    expect(text).not.toMatch(/^connected \|/m);
  });

  it("--local and the chat / terminal aliases are refused with what to run instead (exit 2)", async () => {
    for (const args of [["tui", "--local"], ["chat"], ["terminal"]]) {
      const { code, output } = await runCli(args, {});
      expect(code).toBe(2);
      expect(output).toMatch(/local \(embedded\) mode is not supported here: start the gateway .* and run `openclaw tui`/);
    }
  });

  it("without a terminal it refuses and names the command for scripts", async () => {
    const { code, output } = await runCli(["tui", "--url", gw.url, "--token", "x"], {});
    expect(code).toBe(1);
    expect(output).toContain("openclaw tui needs a terminal (stdin and stdout a TTY); use `openclaw agent -m <text>` from a script");
  });

  it("a wrong token shows the gateway's refusal with the fix, and exits non-zero", async () => {
    startTui(BAD_TOKEN_SESSION, "not-the-token");
    const text = await waitForScreen(new RegExp(`${EXITED} \\d+`), "the exit code", BAD_TOKEN_SESSION);
    expect(text).toMatch(/refused the connection: unauthorized: gateway token mismatch/);
    expect(text).toMatch(/Pass the gateway's token with --token <token>/);
    expect(text).toContain(`${EXITED} 1`);
  });
});

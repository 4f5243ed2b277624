import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";

/**
 * OpenClaw's own terminal UI (`openclaw tui` from the npm package, under Node 24) in a real
 * terminal — a tmux session — against this gateway and the fake model, driven the way a person
 * would: type a message, `/status`, `/new`, and read the screen. Run by test/checks/tui-tmux.sh,
 * which provides Node 24 and the package (OPENCLAW_CHECK_NODE, OPENCLAW_CHECK_CLI).
 */
const NODE = process.env.OPENCLAW_CHECK_NODE ?? "";
const CLI = process.env.OPENCLAW_CHECK_CLI ?? "";
const SESSION = `openclaw-tui-check-${process.pid}`;
/** Every screen the check waited for, in order, for a person to look at afterwards. */
const TRANSCRIPT = process.env.OPENCLAW_CHECK_SCREENS ?? path.join(makeTempDir(), "tui-screens.txt");

let model: FakeModelServer;
let gw: GatewayProcess;

const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-t", SESSION);

/** Polls the screen until `pattern` shows; fails with the screen as it was. */
async function waitForScreen(pattern: RegExp, what: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (pattern.test(text)) {
      fs.appendFileSync(TRANSCRIPT, `--- ${what}\n${text}\n`);
      return text;
    }
    if (Date.now() > deadline) throw new Error(`the TUI never showed ${what} (${pattern}); the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Types a line into the TUI's editor and, once it shows there, presses Enter (keys sent with the text can arrive as part of a paste). */
async function submit(text: string): Promise<void> {
  await waitForScreen(/\| idle/, "an idle session before typing");
  tmux("send-keys", "-t", SESSION, "-l", text);
  await waitForScreen(new RegExp(`^${escapeRegExp(text)}\\s*$`, "m"), `"${text}" in the editor`);
  tmux("send-keys", "-t", SESSION, "Enter");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

beforeAll(async () => {
  if (!fs.existsSync(NODE) || !fs.existsSync(CLI)) throw new Error("run this check through test/checks/tui-tmux.sh: it provides Node 24 and the openclaw package");
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `fake model heard: ${lastUserText(req)}`, usage: { input: 1200, output: 40 } }));
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  // The TUI gets a home and state dir of its own: nothing of the person running the check is read.
  const home = makeTempDir();
  const tuiState = path.join(home, ".openclaw");
  fs.mkdirSync(tuiState, { recursive: true });
  const command = [NODE, CLI, "tui", "--url", gw.url, "--token", gw.token ?? ""].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
  tmux("new-session", "-d", "-s", SESSION, "-x", "160", "-y", "48", "-e", `HOME=${home}`, "-e", `OPENCLAW_STATE_DIR=${tuiState}`, "-e", "TERM=xterm-256color", command);
});
afterAll(async () => {
  try {
    tmux("kill-session", "-t", SESSION);
  } catch {
    // Already gone: the TUI exited.
  }
  await gw?.stop("SIGKILL");
  await model?.close();
});

describe("OpenClaw's TUI in tmux against this gateway", () => {
  it("connects and answers a chat message through the fake model", async () => {
    // The TUI's own start-up (Node 24 loading the package) takes a while on a loaded machine.
    await waitForScreen(/connected \| idle/, "that it connected", 120_000);
    await submit("hello from tmux");
    const text = await waitForScreen(/fake model heard: hello from tmux/, "the model's answer");
    expect(text).not.toMatch(/unknown method|refresh failed/i);
  });

  it("/status shows the gateway's status card, not a model answer", async () => {
    const before = model.requests.length;
    await submit("/status");
    const text = await waitForScreen(/Status · agent:main:main/, "the status card");
    expect(text).toMatch(/Model: fake\/fake-model/);
    expect(text).toMatch(/Tokens: /);
    expect(model.requests.length).toBe(before);
  });

  it("/new starts a new session without an error", async () => {
    await submit("/new");
    // The TUI creates the session (sessions.create) and switches to it: the header names a new key.
    const text = await waitForScreen(/^ session agent:main:(?!main\s)\S+/m, "the header naming a new session");
    expect(text).toMatch(/new session: agent:main:/);
    expect(text).not.toMatch(/failed|unknown method/i);
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeResumeHandoff } from "../../src/cli/resume/handoff.js";
import { certificateFingerprint } from "../../src/infra/tls/tls-fingerprint.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { REFUSED_PORT } from "../helpers/ports.js";
import { lastUserText } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { EXITED, killTmuxSession, startCliInTmux, tmux, waitForScreen } from "../helpers/tmux-terminal.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `openclaw resume` against a gateway process and the fake model: sessions made by real turns,
 * then the built CLI picks one (by query in a real terminal, tmux; by the picker; from a Control
 * UI handoff payload) and the TUI opens on it, its history on screen. Refusals run as plain
 * child processes.
 */
const SESSION = `openclaw-resume-e2e-${process.pid}`;
const sessions: string[] = [];

let model: FakeModelServer;
let gw: GatewayProcess;
let token: string;

const resume = (...args: string[]) => runCli(["resume", ...args], { OPENCLAW_STATE_DIR: makeTempDir() });

/** A new tmux session running `openclaw resume <args>` against the gateway. */
function resumeInTmux(name: string, args: string[]): string {
  const session = `${SESSION}-${name}`;
  sessions.push(session);
  startCliInTmux(session, ["resume", ...args]);
  return session;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `fake model heard: ${lastUserText(req)}` }));
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  token = gw.token ?? "";
  // Three sessions with a turn each; one gets a label.
  for (const [key, text] of [
    ["bugfix-login", "why does login crash"],
    ["bugfix-export", "the export is empty"],
    ["planning", "plan the week"],
  ]) {
    const turn = await runCli(["agent", "-m", text, "--session-key", key, "--url", gw.url, "--token", token], {});
    expect(turn.output).toContain(`fake model heard: ${text}`);
  }
  const { sock } = await openOperator(gw.url, token);
  const rpc = new Rpc(sock);
  expect((await rpc.request("sessions.patch", { key: "agent:main:bugfix-login", label: "Auth incident" })).ok).toBe(true);
  sock.close();
}, 90_000);

afterAll(async () => {
  for (const session of sessions) killTmuxSession(session);
  await gw?.stop("SIGKILL");
  await model?.close();
});

describe("openclaw resume <query> in a terminal", () => {
  it("a unique label fragment opens the TUI on that session, its history on screen", async () => {
    const session = resumeInTmux("label", ["incident", "--url", gw.url, "--token", token]);
    const text = await waitForScreen(session, /^connected \| idle/m, "the TUI connected and idle", 60_000);
    expect(text).toMatch(/^openclaw tui \| ws:\/\/127\.0\.0\.1:\d+ \| agent main \| session agent:main:bugfix-login/m);
    expect(text).toMatch(/^you> why does login crash$/m);
    expect(text).toMatch(/^fake model heard: why does login crash$/m);
    expect(text).not.toMatch(/the export is empty/);
    tmux("send-keys", "-t", session, "C-d");
    await waitForScreen(session, new RegExp(`${EXITED} 0`), "the exit code 0");
  });

  it("an exact key wins, and a fuzzy query matches when no name contains it", async () => {
    const exact = resumeInTmux("exact", ["agent:main:planning", "--url", gw.url, "--token", token]);
    await waitForScreen(exact, /^you> plan the week$/m, "the planning session's history", 60_000);
    const fuzzy = resumeInTmux("fuzzy", ["bfxexp", "--url", gw.url, "--token", token]);
    const text = await waitForScreen(fuzzy, /^you> the export is empty$/m, "the export session's history", 60_000);
    expect(text).toMatch(/session agent:main:bugfix-export/);
  });
});

describe("openclaw resume refusals (no terminal needed)", () => {
  it("an ambiguous query prints the candidates and exits 1", async () => {
    const result = await resume("bugfix", "--url", gw.url, "--token", token);
    expect(result.code).toBe(1);
    expect(result.output).toContain('Session query "bugfix" is ambiguous. Candidates:');
    expect(result.output).toMatch(/^ {2}.*\[agent:main:bugfix-login\]$/m);
    expect(result.output).toMatch(/^ {2}.*\[agent:main:bugfix-export\]$/m);
    expect(result.output).toContain("Use a longer name or the exact session key.");
    expect(result.output).not.toContain("planning");
  });

  it("no match suggests the picker and openclaw sessions, exit 1", async () => {
    const result = await resume("zebra", "--url", gw.url, "--token", token);
    expect(result.code).toBe(1);
    expect(result.output).toContain('No recent session matched "zebra".');
    expect(result.output).toContain("Run `openclaw resume` to choose from recent sessions or `openclaw sessions` to inspect all sessions.");
  });

  it("a match without a terminal says to re-run from one, exit 1; no query without a terminal names the query form", async () => {
    const matched = await resume("planning", "--url", gw.url, "--token", token);
    expect(matched.code).toBe(1);
    expect(matched.output).toContain("Found agent:main:planning, but attaching to it requires an interactive terminal");
    const bare = await resume("--url", gw.url, "--token", token);
    expect(bare.code).toBe(1);
    expect(bare.output).toContain("Attaching to a session requires an interactive terminal");
    expect(bare.output).toContain("a query (a session key, name or label) picks the session without the picker");
  });

  it("an unreachable gateway names the URL and how to start one; nothing is started", async () => {
    const url = `ws://127.0.0.1:${REFUSED_PORT}`;
    const result = await resume("planning", "--url", url);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`cannot reach gateway at ${url}`);
    expect(result.output).toContain("no gateway is running there. Start one with `openclaw gateway start`");
    // A name that does not resolve (the .invalid domain never does).
    const nowhere = "wss://gateway.invalid:18789";
    const unresolved = await resume("planning", "--url", nowhere);
    expect(unresolved.code).toBe(1);
    expect(unresolved.output).toContain(`cannot reach gateway at ${nowhere}: `);
    expect(unresolved.output).toContain("nothing answered there. Check the address and that the gateway runs and is reachable from this machine.");
  });

  it("refuses --handoff with a query or --url, and a payload that is not one", async () => {
    const payload = encodeResumeHandoff("agent:main:planning", gw.url);
    for (const args of [
      ["planning", "--handoff", payload],
      ["--handoff", payload, "--url", gw.url],
    ]) {
      const result = await resume(...args);
      expect(result.code).toBe(1);
      expect(result.output).toContain("--handoff cannot be combined with a positional query or --url");
    }
    const bad = await resume("--handoff", `${payload}=`);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain("Invalid --handoff payload. Copy a fresh command from the Control UI.");
  });

  it("a handoff for a session the gateway does not have stops with the fresh-command guidance", async () => {
    const result = await resume("--handoff", encodeResumeHandoff("agent:main:deleted-long-ago", gw.url), "--token", token);
    expect(result.code).toBe(1);
    expect(result.output).toContain("Could not resolve the session handoff. Copy a fresh command from the Control UI.");
  });

  it("a handoff to a gateway other than this profile's uses only the flags' credentials", async () => {
    const result = await runCli(["resume", "--handoff", encodeResumeHandoff("agent:main:planning", gw.url)], {
      OPENCLAW_STATE_DIR: makeTempDir(),
      OPENCLAW_GATEWAY_TOKEN: token,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`the gateway at ${gw.url} refused the connection`);
    expect(result.output).not.toContain(token);
  });
});

describe("openclaw resume --handoff credentials", () => {
  /** A profile whose own gateway is `gw` (its port and token in the config), and nothing running in its state dir. */
  function profileOfGateway(): string {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ gateway: { port: gw.port, auth: { token } } }));
    return stateDir;
  }

  it("a handoff to exactly this profile's gateway address uses the config's token, never the shell's", async () => {
    const result = await runCli(["resume", "--handoff", encodeResumeHandoff("agent:main:planning", gw.url)], {
      OPENCLAW_STATE_DIR: profileOfGateway(),
      OPENCLAW_GATEWAY_TOKEN: "a-token-of-another-gateway",
    });
    // Connected and resolved; only the terminal is missing.
    expect(result.output).toContain("Found agent:main:planning, but attaching to it requires an interactive terminal");
    expect(result.code).toBe(1);
  });

  it("a handoff to another address (localhost is not 127.0.0.1) does not borrow the profile's token", async () => {
    const elsewhere = `ws://localhost:${gw.port}`;
    const result = await runCli(["resume", "--handoff", encodeResumeHandoff("agent:main:planning", elsewhere)], { OPENCLAW_STATE_DIR: profileOfGateway() });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`the gateway at ${elsewhere} refused the connection`);
    expect(result.output).toContain("a --handoff connection uses --token and --password");
    expect(result.output).not.toContain(token);
  });
});

describe("openclaw resume --tls-fingerprint against a gateway serving TLS", () => {
  let tlsGateway: GatewayProcess;
  let pin: string;
  let wssUrl: string;

  beforeAll(async () => {
    const stateDir = makeTempDir("resume-tls-");
    tlsGateway = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { gateway: { tls: { enabled: true } } }) } });
    pin = certificateFingerprint(fs.readFileSync(path.join(stateDir, "gateway", "tls", "gateway-cert.pem")));
    wssUrl = `wss://127.0.0.1:${tlsGateway.port}`;
  }, 60_000);
  afterAll(async () => {
    await tlsGateway?.stop("SIGKILL");
  });

  it("connects with the certificate's fingerprint (either form) and refuses another or a malformed one", async () => {
    const colonPin = pin.toUpperCase().replace(/(..)(?!$)/g, "$1:");
    for (const given of [pin, `sha256:${colonPin}`]) {
      const pinned = await resume("zebra", "--url", wssUrl, "--token", tlsGateway.token ?? "", "--tls-fingerprint", given);
      expect(pinned.output).toContain('No recent session matched "zebra".');
      expect(pinned.code).toBe(1);
    }
    const wrong = await resume("zebra", "--url", wssUrl, "--token", tlsGateway.token ?? "", "--tls-fingerprint", "0".repeat(64));
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain(`is not the pinned one (sha256 ${"0".repeat(64)})`);
    const malformed = await resume("zebra", "--url", wssUrl, "--tls-fingerprint", "abc");
    expect(malformed.code).toBe(1);
    expect(malformed.output).toContain(
      '--tls-fingerprint: expected the certificate\'s SHA-256 fingerprint, 64 hex digits or 32 colon-separated pairs (optionally prefixed sha256:), got "abc"',
    );
    const plain = await resume("zebra", "--url", gw.url, "--token", token, "--tls-fingerprint", pin);
    expect(plain.code).toBe(1);
    expect(plain.output).toContain("which is not a wss:// address");
  });
});

describe("openclaw resume --handoff and the picker in a terminal", () => {
  it("a Control UI handoff payload opens its session on its gateway", async () => {
    const session = resumeInTmux("handoff", ["--handoff", encodeResumeHandoff("agent:main:bugfix-export", gw.url), "--token", token]);
    const text = await waitForScreen(session, /^you> the export is empty$/m, "the handed-off session's history", 60_000);
    expect(text).toMatch(/^openclaw tui \| ws:\/\/127\.0\.0\.1:\d+ \| agent main \| session agent:main:bugfix-export/m);
  });

  it("the picker lists the recent sessions; typing filters, Enter opens the highlighted one", async () => {
    const session = resumeInTmux("picker", ["--url", gw.url, "--token", token]);
    let text = await waitForScreen(session, /^Resume a session$/m, "the picker", 60_000);
    text = await waitForScreen(session, /planning/, "the planning row");
    expect(text).toMatch(/bugfix-login/);
    expect(text).toMatch(/bugfix-export/);
    tmux("send-keys", "-t", session, "-l", "plan");
    await waitForScreen(session, /^filter> plan\s*$/m, "the typed filter");
    text = await waitForScreen(session, /^> .*\(planning\)|^> planning/m, "the planning row highlighted");
    expect(text).not.toMatch(/bugfix-login/);
    tmux("send-keys", "-t", session, "Enter");
    text = await waitForScreen(session, /^you> plan the week$/m, "the planning session's history");
    expect(text).toMatch(/session agent:main:planning/);
  });

  it("Up and Down move the highlight; Esc clears the filter, then cancels with exit 0", async () => {
    const session = resumeInTmux("picker-keys", ["--url", gw.url, "--token", token]);
    await waitForScreen(session, /^Resume a session$/m, "the picker", 60_000);
    const first = (await waitForScreen(session, /^> \S/m, "a highlighted row")).match(/^> (.*)$/m)?.[1];
    tmux("send-keys", "-t", session, "Down");
    const second = (await waitForScreen(session, new RegExp(`^ {2}${escapeRegExp(first ?? "")}`, "m"), "the first row no longer highlighted")).match(/^> (.*)$/m)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    tmux("send-keys", "-t", session, "Up");
    await waitForScreen(session, new RegExp(`^> ${escapeRegExp(first ?? "")}`, "m"), "the first row highlighted again");
    tmux("send-keys", "-t", session, "-l", "zzz");
    await waitForScreen(session, /no session matches "zzz"/, "an empty filtered list");
    tmux("send-keys", "-t", session, "Escape");
    await waitForScreen(session, /^filter>\s*$/m, "the cleared filter");
    tmux("send-keys", "-t", session, "Escape");
    const after = await waitForScreen(session, new RegExp(`${EXITED} 0`), "the exit code 0");
    expect(after).toContain("Cancelled.");
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

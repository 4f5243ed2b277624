import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FakeModelServer, RecordedRequest } from "../fakes/model-server.js";
import { startGateway, type GatewayProcess, type StartOptions } from "./gateway-process.js";

/**
 * Shared pieces of the reliability e2e tests: a state dir whose config points the agent at the
 * fake model server, on-disk checks of the session store, and helpers to read what the fake
 * model was asked.
 */

export interface AgentStateOptions {
  /** Merged into `agents.defaults`. */
  agentDefaults?: Record<string, unknown>;
  /** Extra top-level config (shallow-merged). */
  extra?: Record<string, unknown>;
  /** Enable `POST /v1/chat/completions`. */
  http?: boolean;
  /** The fake model is a reasoning model: a turn's thinking level reaches it as `reasoning_effort`. */
  reasoning?: boolean;
}

export function agentConfig(server: FakeModelServer, stateDir: string, opts: AgentStateOptions = {}): Record<string, unknown> {
  return {
    agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "fake/fake-model" }, ...opts.agentDefaults } },
    models: {
      providers: {
        fake: {
          baseUrl: `${server.url}/v1`,
          apiKey: "sk-x",
          api: "openai-completions",
          models: [{ id: "fake-model", contextWindow: 120000, maxTokens: 4096, ...(opts.reasoning ? { reasoning: true } : {}) }],
        },
      },
    },
    ...(opts.http ? { gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } } } : {}),
    ...opts.extra,
  };
}

const created: string[] = [];

/**
 * A temp dir on tmpfs (`/dev/shm`) when there is one. The gateway fsyncs several times per turn
 * (transcript append, index rewrite + directory fsync, idempotency ledger); on a real disk that
 * is most of a turn's wall time, and these tests run hundreds of turns. Process death (SIGKILL)
 * keeps the page cache either way, so tmpfs changes nothing about what a crash test proves.
 */
export function makeFastTempDir(prefix = "openclaw-rel-"): string {
  let base = os.tmpdir();
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    base = "/dev/shm";
  } catch {
    // no tmpfs: the ordinary temp dir
  }
  const dir = fs.mkdtempSync(path.join(base, prefix));
  created.push(dir);
  return dir;
}

/** Removes every dir made by makeFastTempDir in this process (call from afterAll). */
export function removeFastTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp state dir with `openclaw.json` pointing the default agent at the fake model. */
export function makeAgentState(server: FakeModelServer, opts: AgentStateOptions = {}): string {
  const stateDir = makeFastTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(agentConfig(server, stateDir, opts)));
  return stateDir;
}

export async function startOn(stateDir: string, token: string, extra: Partial<StartOptions> = {}): Promise<GatewayProcess> {
  return startGateway({ stateDir, token, ...extra });
}

export function sessionsDir(stateDir: string, agentId = "main"): string {
  return path.join(stateDir, "agents", agentId, "sessions");
}

/** `sessions.json` parsed (throws if it is not valid JSON). */
export function readIndex(stateDir: string, agentId = "main"): Record<string, any> {
  const file = path.join(sessionsDir(stateDir, agentId), "sessions.json");
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** Live transcript files (`<uuid>.jsonl`, not archives). */
export function transcriptFiles(stateDir: string, agentId = "main"): string[] {
  const dir = sessionsDir(stateDir, agentId);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => path.join(dir, n));
}

/** Every file under the sessions dir (archives and temp files included). */
export function allSessionFiles(stateDir: string, agentId = "main"): string[] {
  const dir = sessionsDir(stateDir, agentId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

export interface TranscriptCheck {
  file: string;
  lines: any[];
  /** Lines that did not parse (index, text). */
  bad: { index: number; text: string; last: boolean }[];
}

/** Parse a transcript line by line; a torn line is reported, not thrown. */
export function parseTranscriptFile(file: string): TranscriptCheck {
  const text = fs.readFileSync(file, "utf8");
  const raw = text.split("\n");
  const lines: any[] = [];
  const bad: TranscriptCheck["bad"] = [];
  raw.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      lines.push(JSON.parse(line));
    } catch {
      const last = raw.slice(index + 1).every((l) => l.trim() === "");
      bad.push({ index, text: line.slice(0, 200), last });
    }
  });
  return { file, lines, bad };
}

/** Text of a transcript / history message (string content or text blocks). */
export function messageText(message: any): string {
  if (typeof message?.content === "string") return message.content;
  if (Array.isArray(message?.content))
    return message.content
      .filter((b: any) => b?.type === "text")
      .map((b: any) => b.text)
      .join("");
  return "";
}

/** The OpenAI-wire messages of a fake-model request, as { role, text }. */
export function requestMessages(request: RecordedRequest): { role: string; text: string }[] {
  const messages = (request.body?.messages ?? []) as any[];
  return messages.map((m) => ({ role: m.role, text: messageText(m) }));
}

/** The last user message text the gateway sent to the model in this request. */
export function lastUserText(request: RecordedRequest): string {
  const users = requestMessages(request).filter((m) => m.role === "user");
  return users.at(-1)?.text ?? "";
}

export function chatRequests(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path === "/v1/chat/completions");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil(check: () => boolean, timeoutMs: number, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * `waitUntil` on something a gateway process does: fails at once when the process exits, and
 * either failure carries the end of its output, so a rare crash names its cause.
 */
export async function waitUntilGateway(gw: Pick<GatewayProcess, "proc" | "output">, check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const exited = () => gw.proc.exitCode !== null || gw.proc.signalCode !== null;
  try {
    await waitUntil(
      () => {
        if (check()) return true;
        if (exited()) throw new Error(`the gateway exited (${gw.proc.exitCode ?? gw.proc.signalCode}) while waiting for ${what}`);
        return false;
      },
      timeoutMs,
      what,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- end of the gateway's output ---\n${gw.output().slice(-6_000)}`);
  }
}

import { spawn } from "node:child_process";
import readline from "node:readline";
import { Readable, Writable } from "node:stream";
import { setTimeout as wait } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import { isReadUnderCwd, optionOfKind } from "./permission-policy.js";
import { renderUpdate, type ClientOutput } from "./render.js";

export interface RunClientInput {
  command: string;
  args: string[];
  cwd: string;
  version: string;
  input: NodeJS.ReadableStream;
  /** Permission questions are asked only when the input is a terminal; otherwise they are denied. */
  interactive: boolean;
  io: ClientOutput;
  log?: (line: string) => void;
}

/** Lines of the input, taken one at a time by prompts and by permission questions alike. */
function lineQueue(input: NodeJS.ReadableStream) {
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const rl = readline.createInterface({ input, terminal: false });
  rl.on("line", (line) => (waiters.length > 0 ? waiters.shift()!(line) : lines.push(line)));
  rl.on("close", () => {
    ended = true;
    for (const wake of waiters.splice(0)) wake(undefined);
  });
  return {
    next(): Promise<string | undefined> {
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => rl.close(),
  };
}

/**
 * `openclaw acp client`: spawns an ACP agent, opens one session in `cwd`, sends each input
 * line as a prompt and prints what streams back. Reads under the cwd are approved on their
 * own; every other permission request is asked on the terminal, or denied without one.
 * Resolves with the exit code: 0 when the input ended normally.
 */
export async function runAcpClient(input: RunClientInput): Promise<number> {
  const log = input.log ?? (() => {});
  const child = spawn(input.command, input.args, { cwd: input.cwd, stdio: ["pipe", "pipe", "inherit"] });
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once("error", (err) => reject(new Error(`cannot start ${input.command}: ${(err as NodeJS.ErrnoException).code ?? err.message}`)));
  });
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)));
  const agentGone = Promise.race([spawnFailed, exited.then((how) => Promise.reject(new Error(`the agent exited (${how})`)))]);
  agentGone.catch(() => {});

  const lines = lineQueue(input.input);
  const titles = new Map<string, string>();
  const ask = async (request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> => {
    const allow = optionOfKind(request.options, ["allow_once", "allow_always"]);
    const reject = optionOfKind(request.options, ["reject_once", "reject_always"]);
    if (isReadUnderCwd(request, input.cwd) && allow) {
      log(`auto-approved read: ${request.toolCall.title ?? request.toolCall.toolCallId}`);
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    }
    let approved = false;
    if (input.interactive && allow) {
      input.io.err(`\n[permission] ${request.toolCall.title ?? request.toolCall.toolCallId} — allow? [y/N] `);
      approved = /^y(es)?$/i.test(((await lines.next()) ?? "").trim());
    } else {
      input.io.err(`\n[permission] denied (no terminal to ask): ${request.toolCall.title ?? request.toolCall.toolCallId}\n`);
    }
    if (approved && allow) return { outcome: { outcome: "selected", optionId: allow.optionId } };
    return reject ? { outcome: { outcome: "selected", optionId: reject.optionId } } : { outcome: { outcome: "cancelled" } };
  };

  const app = acp
    .client({ name: "openclaw-acp-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => renderUpdate(params.update, input.io, titles))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => ask(params))
    .onNotification("*", ({ method }) => log(`ignored notification ${method}`));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const agent = connection.agent;
  const orAgentGone = <T>(p: Promise<T>) => Promise.race([p, agentGone]);

  let active: string | undefined;
  const onSigint = () => {
    if (!active) return stop();
    input.io.err("\n[cancel]\n");
    void agent.notify(acp.methods.agent.session.cancel, { sessionId: active });
  };
  const stop = () => {
    lines.close();
    child.kill("SIGTERM");
  };
  process.on("SIGINT", onSigint);
  try {
    const init = await orAgentGone(
      agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "openclaw-acp-client", version: input.version },
      }),
    );
    log(`agent: ${init.agentInfo?.name ?? "unknown"} ${init.agentInfo?.version ?? ""} (protocol ${init.protocolVersion})`);
    const session = await orAgentGone(agent.request(acp.methods.agent.session.new, { cwd: input.cwd, mcpServers: [] }));
    for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
      if (!line.trim()) continue;
      active = session.sessionId;
      const result = await orAgentGone(agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text: line }] }));
      active = undefined;
      input.io.out("\n");
      if (result.stopReason !== "end_turn") input.io.err(`[stop: ${result.stopReason}]\n`);
    }
    return 0;
  } catch (err) {
    // The agent's stdout closing usually comes just before its exit status: name that when it comes.
    const how = await Promise.race([exited, wait(1000, undefined)]);
    input.io.err(`openclaw acp client: ${how ? `the agent exited (${how})` : (err as Error).message}\n`);
    return 1;
  } finally {
    process.off("SIGINT", onSigint);
    connection.close();
    stop();
  }
}

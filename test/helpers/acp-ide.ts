import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { CLI, cleanEnv } from "./gateway-process.js";

type PermissionAnswer = (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

/** An IDE driving a real `openclaw acp` child process through the SDK's client app. */
export interface AcpIde {
  proc: ChildProcess;
  agent: acp.ClientContext;
  /** Every `session/update` received, in order. */
  updates: acp.SessionNotification[];
  permissionRequests: acp.RequestPermissionRequest[];
  answerPermissions(answer: PermissionAnswer): void;
  stderr(): string;
  waitForUpdate(predicate: (n: acp.SessionNotification) => boolean, timeoutMs?: number): Promise<acp.SessionNotification>;
  textOf(sessionId: string, kind?: string): string;
  close(): Promise<void>;
}

export function spawnAcpBridge(args: string[], env: Record<string, string | undefined>): AcpIde {
  const proc = spawn(process.execPath, [CLI, "acp", ...args], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const updates: acp.SessionNotification[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const waiters = new Set<() => void>();
  let answer: PermissionAnswer = () => ({ outcome: { outcome: "cancelled" } });
  const app = acp
    .client({ name: "test-ide" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const wake of waiters) wake();
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return answer(params);
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(proc.stdout!) as ReadableStream<Uint8Array>));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return {
    proc,
    agent: connection.agent,
    updates,
    permissionRequests,
    answerPermissions: (a) => (answer = a),
    stderr: () => stderr,
    waitForUpdate: (predicate, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = updates.find(predicate);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching session/update within ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    textOf: (sessionId, kind = "agent_message_chunk") =>
      updates
        .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind)
        .map((n) => (n.update as { content: { type: string; text?: string } }).content.text ?? "")
        .join(""),
    close: async () => {
      connection.close();
      proc.stdin!.end();
      if (proc.exitCode === null && proc.signalCode === null) {
        const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

export async function initialize(ide: AcpIde): Promise<acp.InitializeResponse> {
  return ide.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isSecretEntry, type OpenClawConfig } from "../../config/index.js";
import { GatewayClient } from "../../gateway/client.js";
import { packageVersion } from "../../infra/version.js";
import { CliError } from "../output.js";

/** One agent of the eval gateway: a trial's, with its own workspace, or the rubric judge's. */
export interface EvalAgent {
  id: string;
  workspace: string;
  model?: string;
  tools?: { profile?: string; allow?: string[]; deny?: string[] };
}

export interface EvalGateway {
  client: GatewayClient;
  stateDir: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/**
 * A gateway of its own for an eval run: a child process of this CLI (`gateway run --port 0`) in
 * a fresh state dir, with the user's models and keys and one agent per trial, so each trial runs
 * through the real gateway path in an isolated session and workspace. Channels, memory search
 * and everything else of the user's config stay out of it.
 */
export async function startEvalGateway(user: OpenClawConfig, stateDir: string, agents: readonly EvalAgent[], defaultModel: string | undefined): Promise<EvalGateway> {
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const defaults = user.agents.defaults;
  const config = {
    ...(user.models ? { models: user.models } : {}),
    ...(user.auth ? { auth: user.auth } : {}),
    ...(user.logging.redactPatterns ? { logging: { redactPatterns: user.logging.redactPatterns } } : {}),
    agents: {
      defaults: {
        ...(defaultModel ? { model: { primary: defaultModel } } : defaults.model ? { model: defaults.model } : {}),
        ...(defaults.models ? { models: defaults.models } : {}),
        ...(defaults.thinkingDefault ? { thinkingDefault: defaults.thinkingDefault } : {}),
      },
      list: agents.map((a) => ({ id: a.id, workspace: a.workspace, ...(a.model ? { model: a.model } : {}), ...(a.tools ? { tools: a.tools } : {}) })),
    },
    tools: { exec: evalExecPolicy(user) },
    memory: { search: { enabled: false } },
  };
  const secrets: Record<string, string> = {};
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(secretsToEnv(config, secrets), null, 2), { mode: 0o600 });
  const token = randomBytes(24).toString("hex");
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCLAW_")) env[k] = v;
  Object.assign(env, secrets, { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: token, OPENCLAW_LOG_LEVEL: "info" });
  const child = spawn(process.execPath, [process.argv[1]!, "gateway", "run", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const port = await waitForPort(child, stateDir);
  const client = await GatewayClient.connect({ url: `ws://127.0.0.1:${port}`, token, version: packageVersion(), clientId: "cli", mode: "cli" });
  return {
    client,
    stateDir,
    stop: async () => {
      client.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The user's exec policy (`tools.exec`: security, ask, allowlist, safe bins, command timeout), so
 * `noApprovalRequested` grades against it. Nobody answers approvals here: a command the policy
 * asks about is denied after a second instead of holding the trial for the approval timeout.
 */
function evalExecPolicy(user: OpenClawConfig): NonNullable<NonNullable<OpenClawConfig["tools"]>["exec"]> {
  const { security, ask, allowlist, safeBins, timeoutSeconds } = user.tools?.exec ?? {};
  return {
    ...(security ? { security } : {}),
    ...(ask ? { ask } : {}),
    ...(allowlist ? { allowlist } : {}),
    ...(safeBins ? { safeBins } : {}),
    ...(timeoutSeconds ? { timeoutSeconds } : {}),
    approvalTimeoutSeconds: 1,
  };
}

/**
 * A copy of `value` whose credentials (the entries `config get` hides) are `${VAR}` references,
 * their values put in `into` for the child's environment: the eval state dir outlives the run,
 * so no key the user kept out of their own files is written into it. The names end in `_SECRET`,
 * so the exec tool's commands do not inherit them (exec-env.ts).
 */
function secretsToEnv(value: unknown, into: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => secretsToEnv(item, into));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    let copy = secretsToEnv(child, into);
    if (typeof child === "string" && isSecretEntry(key, child)) {
      const name = `OPENCLAW_EVAL_${Object.keys(into).length + 1}_SECRET`;
      into[name] = child;
      copy = `\${${name}}`;
    }
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The port from the gateway's `gateway listening` line; its output is kept in `<state>/eval-gateway.log`. */
function waitForPort(child: ChildProcess, stateDir: string): Promise<number> {
  const log = fs.createWriteStream(path.join(stateDir, "eval-gateway.log"));
  return new Promise((resolve, reject) => {
    let buffered = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new CliError(`the eval gateway did not start: ${why}. Its output is in ${path.join(stateDir, "eval-gateway.log")}.`));
    };
    const timer = setTimeout(() => fail(`no "gateway listening" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.stderr!.pipe(log);
    child.stdout!.on("data", (chunk: Buffer) => {
      log.write(chunk);
      buffered += chunk.toString("utf8");
      const line = buffered.split("\n").find((l) => l.includes('"msg":"gateway listening"'));
      const port = line ? /"port":(\d+)/.exec(line)?.[1] : undefined;
      if (port) {
        clearTimeout(timer);
        buffered = "";
        resolve(Number(port));
      } else if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
    });
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? code})`));
  });
}

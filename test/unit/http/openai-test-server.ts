import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { AuthRateLimiter, type RateLimitSettings } from "../../../src/gateway/auth/rate-limiter.js";
import type { ResolvedAuth } from "../../../src/gateway/auth/resolve-auth.js";
import { registerOpenAiRoutes } from "../../../src/gateway/http/openai/index.js";
import { mediaLimitsFrom } from "../../../src/gateway/http/openai/request-media.js";
import type { ChatTurnInput, ChatTurnResult, OpenAiAgentInfo } from "../../../src/gateway/http/openai/index.js";

export const TOKEN = "test-token-7f3a9c21d4";

/**
 * A fake turn runner driven by the user message:
 *   `stream:a|b|c` → deltas a, b, c (10 ms apart), final text abc
 *   `fail:<kind>:<message>` → an error result
 *   `throw` → rejects with an internal error carrying a stack and the token
 *   `hang` → waits until the client leaves
 *   `silent` → no deltas, empty text
 *   anything else → one delta and final text `echo: <message>`
 */
export class FakeTurns {
  readonly inputs: ChatTurnInput[] = [];
  readonly aborted: string[] = [];

  run = async (input: ChatTurnInput): Promise<ChatTurnResult> => {
    this.inputs.push(input);
    input.client.onLeave(() => this.aborted.push(input.sessionKey));
    const msg = input.message;
    const usage = { input: 11, output: 7 };
    if (msg.startsWith("stream:")) {
      const parts = msg.slice(7).split("|");
      for (const p of parts) {
        await sleep(10);
        input.onDelta(p);
      }
      return { text: parts.join(""), usage, stopReason: "stop" };
    }
    if (msg.startsWith("fail:")) {
      const [, kind, ...rest] = msg.split(":");
      input.onDelta("partial ");
      return { text: "", usage, stopReason: "error", error: { kind: kind!, message: rest.join(":") } };
    }
    if (msg === "throw") throw new Error(`boom with ${TOKEN}\n    at secretFunction (/srv/secret.ts:1:1)`);
    if (msg === "hang") {
      await new Promise<void>((resolve) => input.client.onLeave(resolve));
      return { text: "", usage, stopReason: "aborted" };
    }
    if (msg === "silent") return { text: "", usage: { input: 0, output: 0 }, stopReason: "stop" };
    const text = `echo: ${msg}`;
    input.onDelta(text);
    return { text, usage, stopReason: "stop" };
  };

  get last(): ChatTurnInput {
    return this.inputs[this.inputs.length - 1]!;
  }
}

export interface TestServer {
  app: FastifyInstance;
  base: string;
  turns: FakeTurns;
  setEnabled(on: boolean): void;
  close(): Promise<void>;
}

export async function startOpenAiServer(
  opts: {
    auth?: ResolvedAuth;
    rateLimit?: Partial<RateLimitSettings>;
    agents?: OpenAiAgentInfo[];
    bodyLimitBytes?: number;
    trustedProxies?: string[];
    /** `gateway.http.endpoints.<endpoint>.images` as a config would set them. */
    media?: Partial<Record<"chatCompletions" | "responses", Parameters<typeof mediaLimitsFrom>[0]>>;
  } = {},
): Promise<TestServer> {
  let enabled = true;
  const turns = new FakeTurns();
  // The same app-wide 1 MiB limit as src/gateway/server.ts: the route must raise its own.
  // Closing ends every connection, also one whose refused upload is still being drained.
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  const rateLimiter = new AuthRateLimiter({ maxAttempts: 10, windowMs: 60_000, lockoutMs: 300_000, exemptLoopback: true, ...opts.rateLimit });
  const agents = opts.agents ?? [
    { id: "main", isDefault: true },
    { id: "ops", name: "Ops", isDefault: false },
  ];
  registerOpenAiRoutes(app, {
    enabled: () => enabled,
    auth: () => opts.auth ?? { mode: "token", token: TOKEN },
    rateLimiter,
    proxies: () => ({ trustedProxies: opts.trustedProxies ?? [], allowRealIpFallback: false }),
    agents: () => agents,
    // The models this test gateway knows: anything under the "anthropic" provider.
    modelProblem: (ref) => (ref.startsWith("anthropic/") ? undefined : `provider "${ref.split("/")[0]}" is not configured`),
    mediaLimits: (endpoint) => mediaLimitsFrom(opts.media?.[endpoint], endpoint),
    runTurn: turns.run,
    embed: async ({ texts }) => ({ vectors: texts.map((text) => Float32Array.from([text.length, 0.5, -1])), promptTokens: texts.length }),
    responseSessionsFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-responses-")), "response-sessions.jsonl"),
    ...(opts.bodyLimitBytes ? { bodyLimitBytes: opts.bodyLimitBytes } : {}),
  });
  // A neighbour outside the plugin: it must keep fastify's default behaviour.
  app.post("/neighbour", async (req) => ({ got: req.body }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    turns,
    setEnabled: (on) => {
      enabled = on;
    },
    close: () => app.close(),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function waitFor(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

/** A curl-like JSON POST. */
export function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const userMessage = (content: string) => ({ model: "openclaw", messages: [{ role: "user", content }] });

/** Split an SSE body into its `data:` payloads. */
export function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((e) => e.trim() !== "")
    .map((e) => {
      expect(e.startsWith("data: ")).toBe(true);
      return e.slice(6);
    });
}

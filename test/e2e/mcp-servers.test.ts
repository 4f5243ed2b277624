import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { agentConfig, chatRequests, requestMessages, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";
import { isProcessAlive } from "../../src/infra/process-alive.js";

/**
 * `mcp.servers` in a real gateway: real MCP servers on the official SDK (a child process over
 * stdio, one over Streamable HTTP that needs a header), their tools offered to the model as
 * `<server>__<tool>` and called through the gateway; a server that cannot start, one that exits,
 * one whose tool list changes; `openclaw mcp …`; the gateway's stop ends its servers.
 */

const FAKE_MCP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fakes/mcp-server/fake-mcp-server.mjs");

let model: FakeModelServer;
let gw: GatewayProcess;
let rpc: Rpc;
let httpServer: ChildProcess;
let logFile: string;
let turns = 0;

/** The gateway's environment carries a token an MCP child must not inherit. */
const GATEWAY_ENV = { LEAK_CHECK_TOKEN: "gateway-only" };

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  logFile = path.join(stateDir, "mcp-calls.jsonl");
  httpServer = spawn(process.execPath, [FAKE_MCP, "--http", "--require-header", "x-mcp-key=open-sesame", "--log", logFile], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    httpServer.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    httpServer.once("exit", (code) => reject(new Error(`the HTTP MCP server exited with ${code}`)));
  });
  const config = agentConfig(model, stateDir, {
    extra: {
      mcp: {
        servers: {
          local: { command: process.execPath, args: [FAKE_MCP, "--name", "local", "--log", logFile], env: { FAKE_MCP_SECRET: "s3cret" } },
          remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { "X-MCP-Key": "open-sesame" }, toolFilter: { include: ["add", "ec*"] } },
          legacy: { url: `http://127.0.0.1:${port}/sse`, transport: "sse", headers: { "X-MCP-Key": "open-sesame" }, toolFilter: { exclude: ["*"] } },
          broken: { command: process.execPath, args: [FAKE_MCP, "--stderr-and-exit"] },
          crashy: { command: process.execPath, args: [FAKE_MCP, "--name", "crashy", "--log", logFile, "--crash-on-call", "echo"], toolFilter: { include: ["echo"] } },
          parked: { command: "/nonexistent/never-started", enabled: false },
        },
      },
    },
  });
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  gw = await startGateway({ stateDir, env: GATEWAY_ENV });
  rpc = new Rpc((await openOperator(gw.url, gw.token)).sock);
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  httpServer?.kill();
  await model?.close();
});

/** One chat.send turn whose model calls `tool` with `args`; the tool names the model was offered and the result it got back. */
async function callTool(tool: string, args: Record<string, unknown>): Promise<{ offered: string[]; result: string }> {
  const id = `mcp-turn-${++turns}`;
  model.enqueue({ toolCalls: [{ id: `call_${turns}`, name: tool, arguments: args }] }, { text: "done" });
  const before = chatRequests(model).length;
  const sent = await rpc.request("chat.send", { sessionKey: "agent:main:mcp", message: `use ${tool}`, idempotencyKey: id });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  const waited = await rpc.request("agent.wait", { runId: id, timeoutMs: 60_000 }, 65_000);
  expect(waited.payload.status).toBe("ok");
  const [first, followUp] = chatRequests(model).slice(before);
  const result = requestMessages(followUp!)
    .filter((m) => m.role === "tool")
    .at(-1)!.text;
  return { offered: offeredTools(first!), result };
}

const exited = (pid: number): boolean => !isProcessAlive(pid);

function offeredTools(request: RecordedRequest): string[] {
  return ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

const calls = (): { pid: number; event: string; name?: string; tool?: string; args?: Record<string, unknown> }[] =>
  fs.existsSync(logFile)
    ? fs
        .readFileSync(logFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

describe("MCP servers in a running gateway", { timeout: 120_000 }, () => {
  it("offers the tools of a stdio and an HTTP server as <server>__<tool> and runs their calls there, with only the server's env", async () => {
    const echo = await callTool("local__echo", { text: "hi" });
    expect(echo.result).toBe("echo: hi (secret set, token absent)");
    expect(echo.offered).toEqual(
      expect.arrayContaining(["local__echo", "local__add", "local__fail", "local__pixel", "local__slow", "local__grow", "remote__add", "remote__echo", "crashy__echo"]),
    );
    // toolFilter.include kept remote's add and echo only; a disabled server is never started.
    expect(echo.offered.filter((name) => name.startsWith("remote__")).sort()).toEqual(["remote__add", "remote__echo"]);
    expect(echo.offered.some((name) => name.startsWith("parked__") || name.startsWith("broken__"))).toBe(false);
    const add = await callTool("remote__add", { a: 2, b: 3 });
    expect(add.result).toBe("5");
    // The SSE server answered the handshake and its list with the header (its tools all excluded).
    expect(calls().some((c) => c.event === "sse-open")).toBe(true);
    await waitUntil(() => /"mcpServer":"legacy","tools":0,"msg":"MCP server ready"/.test(gw.output()), 10_000, "the SSE server to be ready");
    expect(
      calls()
        .filter((c) => c.event === "call")
        .map((c) => c.tool),
    ).toEqual(["echo", "add"]);
  });

  it("tools.effective, /tools and tools.invoke see them", async () => {
    const effective = await rpc.request("tools.effective", { sessionKey: "agent:main:mcp" });
    expect(effective.ok, JSON.stringify(effective.error)).toBe(true);
    const group = effective.payload.groups.find((g: { id: string }) => g.id === "bundle-mcp");
    expect(group.tools.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(["local__echo", "remote__add"]));
    expect(effective.payload.groups.find((g: { id: string }) => g.id === "core").tools.some((t: { id: string }) => t.id.includes("__"))).toBe(false);
    const listed = await rpc.request("chat.send", { sessionKey: "agent:main:mcp", message: "/tools", idempotencyKey: "mcp-tools-command" });
    expect(listed.payload.reply).toContain("local__echo");
    const invoked = await rpc.request("tools.invoke", { name: "remote__add", args: { a: 20, b: 22 }, sessionKey: "agent:main:mcp" });
    expect(invoked.ok, JSON.stringify(invoked.error)).toBe(true);
    expect(JSON.stringify(invoked.payload)).toContain("42");
  });

  it("a server with resources and prompts gets the four utility tools", async () => {
    const read = await callTool("local__resources_read", { uri: "notes://today" });
    expect(read.offered).toEqual(expect.arrayContaining(["local__resources_list", "local__resources_read", "local__prompts_list", "local__prompts_get"]));
    expect(read.result).toBe("[resource notes://today]\nbuy milk");
    const listed = await callTool("local__resources_list", {});
    expect(listed.result).toBe("- notes: notes://today (text/plain) — Today's notes.");
    const prompts = await callTool("local__prompts_list", {});
    expect(prompts.result).toBe("- review(file*) — Review a file.");
    const prompt = await callTool("local__prompts_get", { name: "review", arguments: { file: "a.ts" } });
    expect(prompt.result).toBe("user: Please review a.ts.");
  });

  it("refuses arguments the tool's schema does not allow before the server sees them; an isError result reaches the model as one", async () => {
    const bad = await callTool("local__add", { a: "two", b: 1 });
    expect(bad.result).toContain('"error":"INVALID_ARGUMENT"');
    expect(calls().some((c) => c.tool === "add" && c.args?.a === "two")).toBe(false);
    const failed = await callTool("local__fail", {});
    expect(failed.result).toBe("the fake tool failed on purpose");
  });

  it("a server that cannot start is left out with a warning naming it and its stderr", async () => {
    await waitUntil(() => gw.output().includes('MCP server \\"broken\\" is not available'), 10_000, "the warning about the broken server");
    const line = gw
      .output()
      .split("\n")
      .find((l) => l.includes('MCP server \\"broken\\" is not available'))!;
    expect(line).toContain("fatal: the fake server was told to fail at start");
    expect(line).toContain("check mcp.servers.broken");
  });

  it("a changed tool list is offered at the next turn", async () => {
    const grown = await callTool("local__grow", {});
    expect(grown.result).toBe("grew");
    expect(grown.offered).not.toContain("local__extra");
    const extra = await callTool("local__extra", {});
    expect(extra.offered).toContain("local__extra");
    expect(extra.result).toBe("extra tool ran");
  });

  it("a server that exits during a call is an error for that call and is started again by the next turn", async () => {
    const crashyStarts = () => calls().filter((c) => c.event === "start" && c.name === "crashy");
    expect(crashyStarts()).toHaveLength(1);
    const crashed = await callTool("crashy__echo", { text: "boom" });
    expect(crashed.result).toContain('"error":"TOOL_FAILED"');
    expect(crashed.result).toContain("crashy__echo failed");
    const after = await callTool("local__echo", { text: "again" });
    expect(after.offered).toContain("crashy__echo");
    expect(crashyStarts()).toHaveLength(2);
    expect(gw.output()).toContain('MCP server \\"crashy\\" closed its connection; the next turn starts it again');
  });

  it("openclaw mcp list and probe show the servers; probe exits 1 for one that fails", async () => {
    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const list = await runCli(["mcp", "list"], env);
    expect(list.code).toBe(0);
    expect(list.output).toContain("parked (disabled)  stdio: /nonexistent/never-started");
    expect(list.output).toContain("remote  streamable-http: http://127.0.0.1:");
    const probe = await runCli(["mcp", "probe", "local", "--json"], env);
    expect(probe.code).toBe(0);
    const parsed = JSON.parse(probe.output.slice(probe.output.indexOf("{")));
    expect(parsed.servers[0]).toMatchObject({ server: "local", ok: true, hiddenByFilter: 0 });
    expect(parsed.servers[0].tools).toContain("local__echo");
    const broken = await runCli(["mcp", "probe", "broken"], env);
    expect(broken.code).toBe(1);
    expect(broken.output).toContain("broken: FAILED:");
    const parked = await runCli(["mcp", "probe", "parked"], env);
    expect(parked.code).not.toBe(0);
    expect(parked.output).toContain('MCP server "parked" is disabled');
  });

  it("openclaw agent --local starts the servers for its turn and ends them after it", async () => {
    const stateDir = makeTempDir();
    const localLog = path.join(stateDir, "local-calls.jsonl");
    const config = agentConfig(model, stateDir, { extra: { mcp: { servers: { solo: { command: process.execPath, args: [FAKE_MCP, "--name", "solo", "--log", localLog] } } } } });
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    model.enqueue({ toolCalls: [{ id: "call_local", name: "solo__add", arguments: { a: 40, b: 2 } }] }, { text: "the sum is in" });
    const before = chatRequests(model).length;
    const res = await runCli(["agent", "--local", "-m", "add them"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("the sum is in");
    const followUp = chatRequests(model).slice(before)[1]!;
    expect(
      requestMessages(followUp)
        .filter((m) => m.role === "tool")
        .at(-1)!.text,
    ).toBe("42");
    const pid = JSON.parse(fs.readFileSync(localLog, "utf8").split("\n")[0]!).pid as number;
    await waitUntil(() => exited(pid), 10_000, "the local run's MCP server to exit");
  });

  it("openclaw mcp set and unset edit mcp.servers (type http is read as streamable-http)", async () => {
    const env = { OPENCLAW_STATE_DIR: makeTempDir() };
    const set = await runCli(["mcp", "set", "docs", '{"type":"http","url":"https://mcp.example.com/mcp"}'], env);
    expect(set.code).toBe(0);
    const shown = await runCli(["mcp", "show", "docs", "--json"], env);
    expect(JSON.parse(shown.output.slice(shown.output.indexOf("{")))).toEqual({ url: "https://mcp.example.com/mcp", transport: "streamable-http" });
    const both = await runCli(["mcp", "set", "bad", '{"command":"x","url":"https://y"}'], env);
    expect(both.code).not.toBe(0);
    expect(both.output).toContain("give either command");
    expect((await runCli(["mcp", "unset", "docs"], env)).code).toBe(0);
    const gone = await runCli(["mcp", "unset", "docs"], env);
    expect(gone.code).not.toBe(0);
    expect(gone.output).toContain('no MCP server "docs"');
  });

  it("a reload that changes a server's definition starts it again; one that removes a server ends it", async () => {
    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const startsOf = (name: string) => calls().filter((c) => c.event === "start" && c.name === name);
    // `mcp probe` above started its own copies; the gateway's are the ones counted from here.
    const localStartsBefore = startsOf("local").length;
    const crashyPid = startsOf("crashy").at(-1)!.pid;
    const reloads = () =>
      gw
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"config reloaded"')).length;
    const before = reloads();
    expect((await runCli(["config", "set", "mcp.servers.local.env.FAKE_MCP_SECRET", "changed"], env)).code).toBe(0);
    expect((await runCli(["mcp", "unset", "crashy"], env)).code).toBe(0);
    await waitUntil(() => reloads() >= before + 1 && gw.output().includes("mcp.servers.crashy"), 15_000, "the gateway to reload both edits");
    const after = await callTool("local__echo", { text: "reloaded" });
    expect(after.result).toBe("echo: reloaded (secret set, token absent)");
    expect(startsOf("local")).toHaveLength(localStartsBefore + 1);
    expect(after.offered).not.toContain("crashy__echo");
    await waitUntil(
      () => {
        try {
          process.kill(crashyPid, 0);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
      "the removed server to exit",
    );
  });

  it("the gateway's stop ends the servers it started", async () => {
    const pids = [
      ...new Set(
        calls()
          .filter((c) => c.event === "start")
          .map((c) => c.pid),
      ),
    ].filter((pid) => pid !== httpServer.pid);
    expect(pids.length).toBeGreaterThan(0);
    await gw.stop();
    await waitUntil(() => pids.every(exited), 10_000, "the MCP servers to exit");
  });
});

#!/usr/bin/env node
/**
 * An MCP server for tests: a real child process on the official SDK's server side
 * (`McpServer`), over stdio by default, or over HTTP with `--http`: it then prints
 * `listening <port>` on stdout, serves Streamable HTTP at `/mcp` and the older SSE transport at
 * `GET /sse` + `POST /messages`, and checks `--require-header name=value` on every request.
 *
 * Tools:
 *   echo {text}          "echo: <text>", plus FAKE_MCP_SECRET's presence as seen by the process
 *   add {a, b}           the sum, as text and structured content
 *   fail {}              a result with isError: true
 *   pixel {}             a 1×1 PNG image block and a text block
 *   slow {ms}            answers after ms milliseconds
 *   grow {}              registers tool "extra" and tells the client the tool list changed
 * Resource notes://today ("buy milk") and prompt review {file}, unless --no-extras.
 *
 * Flags:
 *   --name NAME           the server's name in its initialize answer
 *   --log FILE            appends one JSON line per tool call (name and arguments), and `start`
 *   --crash-on-call TOOL  exits with code 3 when TOOL is called
 *   --stderr-and-exit     writes a line to stderr and exits 2 before the handshake
 *   --no-extras           offers no resources and no prompts
 */
import fs from "node:fs";
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const has = (name) => args.includes(name);
const logFile = flag("--log");
const log = (entry) => logFile && fs.appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);

if (has("--stderr-and-exit")) {
  process.stderr.write("fatal: the fake server was told to fail at start\n");
  process.exit(2);
}

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function buildServer() {
  const server = new McpServer({ name: flag("--name") ?? "fake-mcp", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const called = (name, input) => {
    log({ event: "call", tool: name, args: input });
    if (flag("--crash-on-call") === name) process.exit(3);
  };
  server.registerTool("echo", { description: "Echo the text back. Says whether FAKE_MCP_SECRET is set.", inputSchema: { text: z.string() } }, async ({ text }) => {
    called("echo", { text });
    return { content: [{ type: "text", text: `echo: ${text} (secret ${process.env.FAKE_MCP_SECRET ? "set" : "unset"}, token ${process.env.LEAK_CHECK_TOKEN ? "leaked" : "absent"})` }] };
  });
  server.registerTool("add", { description: "Add two numbers.", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
    called("add", { a, b });
    return { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } };
  });
  server.registerTool("fail", { description: "Always fails." }, async () => {
    called("fail", {});
    return { content: [{ type: "text", text: "the fake tool failed on purpose" }], isError: true };
  });
  server.registerTool("pixel", { description: "A one-pixel image." }, async () => {
    called("pixel", {});
    return { content: [{ type: "text", text: "a pixel:" }, { type: "image", data: PIXEL, mimeType: "image/png" }] };
  });
  server.registerTool("slow", { description: "Answers after a delay.", inputSchema: { ms: z.number() } }, async ({ ms }) => {
    called("slow", { ms });
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { content: [{ type: "text", text: `waited ${ms} ms` }] };
  });
  server.registerTool("grow", { description: "Adds the extra tool." }, async () => {
    called("grow", {});
    server.registerTool("extra", { description: "Added at run time." }, async () => ({ content: [{ type: "text", text: "extra tool ran" }] }));
    return { content: [{ type: "text", text: "grew" }] };
  });
  if (!has("--no-extras")) {
    server.registerResource("notes", "notes://today", { description: "Today's notes.", mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "buy milk" }] }));
    server.registerPrompt("review", { description: "Review a file.", argsSchema: { file: z.string() } }, ({ file }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Please review ${file}.` } }],
    }));
  }
  return server;
}

log({ event: "start", name: flag("--name") ?? "fake-mcp", http: has("--http") });

if (has("--http")) {
  const required = flag("--require-header");
  const transports = new Map();
  const sseTransports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    if (required) {
      const [name, value] = required.split("=");
      if (req.headers[name.toLowerCase()] !== value) return res.writeHead(401).end("missing header");
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sseTransports.set(transport.sessionId, transport);
      res.on("close", () => sseTransports.delete(transport.sessionId));
      log({ event: "sse-open" });
      return buildServer().connect(transport);
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sseTransports.get(url.searchParams.get("sessionId"));
      if (!transport) return res.writeHead(404).end("unknown session");
      return transport.handlePostMessage(req, res);
    }
    if (!url.pathname.startsWith("/mcp")) return res.writeHead(404).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const sessionId = req.headers["mcp-session-id"];
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => `s-${Math.random().toString(36).slice(2)}`, onsessioninitialized: (id) => transports.set(id, transport) });
      await buildServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${httpServer.address().port}\n`));
} else {
  await buildServer().connect(new StdioServerTransport());
}

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rolldown } from "rolldown";
// @ts-expect-error a plain ES module of the build, without type declarations
import { eagerModuleFactories } from "../../../build/eager-module-factories.mjs";
// @ts-expect-error a plain ES module of the build, without type declarations
import { fastifyOnDemand } from "../../../build/fastify-on-demand.mjs";
// @ts-expect-error a plain ES module of the build, without type declarations
import { lazyAcpSchemas } from "../../../build/lazy-acp-schemas.mjs";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

// A fastify app that uses everything the bundle leaves out: schemas (validation, header
// lowercasing, response serialization), inject() and a plugin that declares its fastify version.
const FIXTURE = `
import Fastify from "fastify";
const out = {};
const app = Fastify();
app.post("/x", {
  schema: {
    body: { type: "object", required: ["a"], properties: { a: { type: "integer" } } },
    headers: { type: "object", properties: { "X-Foo": { type: "string", minLength: 3 } } },
    response: { 200: { type: "object", properties: { b: { type: "integer" } } } },
  },
}, async (req) => ({ b: req.body.a + 1, dropped: true }));
const versioned = async (scope) => { scope.get("/p", async () => ({ p: 1 })); };
versioned[Symbol.for("plugin-meta")] = { fastify: ">=5.0.0", name: "versioned" };
app.register(versioned);
await app.ready();
for (const [name, payload, headers] of [["ok", { a: 1 }, {}], ["badType", { a: "x" }, {}], ["badHeader", { a: 1 }, { "x-foo": "ab" }]]) {
  const res = await app.inject({ method: "POST", url: "/x", payload, headers });
  out[name] = [res.statusCode, res.json()];
}
out.chained = (await app.inject().get("/p")).json();
const tooOld = async () => {};
tooOld[Symbol.for("plugin-meta")] = { fastify: "4.x", name: "too-old" };
try { await Fastify().register(tooOld).ready(); } catch (err) { out.tooOld = err.code; }
console.log(JSON.stringify(out));
`;

let dir: string;
let code: string;
let output: Record<string, unknown>;

beforeAll(async () => {
  // Inside the repository (and git-ignored), so the fixture resolves fastify from node_modules.
  dir = fs.mkdtempSync(path.join(REPO_ROOT, ".build-test-"));
  fs.writeFileSync(path.join(dir, "entry.mjs"), FIXTURE);
  const bundle = await rolldown({ input: path.join(dir, "entry.mjs"), platform: "node", plugins: [fastifyOnDemand(), eagerModuleFactories()], logLevel: "silent" });
  await bundle.write({ dir: path.join(dir, "out"), format: "esm", entryFileNames: "[name].js" });
  await bundle.close();
  code = fs.readFileSync(path.join(dir, "out", "entry.js"), "utf8");
  output = JSON.parse(execFileSync(process.execPath, [path.join(dir, "out", "entry.js")], { encoding: "utf8" }));
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("fastify-on-demand", () => {
  it("leaves the schema compilers, light-my-request, semver and node:http2 out of the bundle", () => {
    for (const left of ["node_modules/ajv/", "node_modules/fast-json-stringify/index.js", "node_modules/light-my-request/", "node_modules/semver/"]) {
      expect(code).not.toContain(`// ${left}`);
    }
    expect(code).not.toContain('__require("node:http2")');
  });

  it("still validates, lowercases header schemas, serializes responses, injects and checks plugin versions", () => {
    expect(output.ok).toEqual([200, { b: 2 }]);
    expect(output.badType).toEqual([400, expect.objectContaining({ code: "FST_ERR_VALIDATION", message: "body/a must be integer" })]);
    expect(output.badHeader).toEqual([400, expect.objectContaining({ message: "headers/x-foo must NOT have fewer than 3 characters" })]);
    expect(output.chained).toEqual({ p: 1 });
    expect(output.tooOld).toBe("FST_ERR_PLUGIN_VERSION_MISMATCH");
  });
});

describe("eager-module-factories", () => {
  it("writes every CommonJS module wrapper as a parenthesized function expression", () => {
    expect(code).toContain("__commonJSMin((function(exports, module) {");
    expect(code).not.toMatch(/__commonJSMin\(\(\([\w$,\s]*\)\s*=>/);
  });
});

// Both sides of the ACP SDK in one process, over an in-memory wire: a valid request, one whose
// params fail the SDK's zod validation, and a session/update notification.
const ACP_FIXTURE = `
import { agent, client, ndJsonStream } from "@agentclientprotocol/sdk";
const toAgent = new TransformStream();
const toClient = new TransformStream();
const out = { updates: [] };
const agentApp = agent({ name: "fixture-agent" })
  .onRequest("initialize", ({ params }) => ({ protocolVersion: params.protocolVersion, agentCapabilities: { loadSession: false } }))
  .onRequest("session/new", async ({ params, client: ide }) => {
    await ide.notify("session/update", { sessionId: "s-1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi from " + params.cwd } } });
    return { sessionId: "s-1" };
  });
agentApp.connect(ndJsonStream(toClient.writable, toAgent.readable));
const clientApp = client({ name: "fixture-client" }).onNotification("session/update", ({ params }) => { out.updates.push(params.update.content.text); });
const connection = clientApp.connect(ndJsonStream(toAgent.writable, toClient.readable));
out.initialize = await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
out.session = await connection.agent.request("session/new", { cwd: "/tmp", mcpServers: [] });
try { await connection.agent.request("session/new", { mcpServers: [] }); } catch (err) { out.invalid = err.code; }
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify(out));
process.exit(0);
`;

describe("lazy-acp-schemas", () => {
  let acpDir: string;
  let acpCode: string;
  let acpOutput: Record<string, unknown>;
  beforeAll(async () => {
    acpDir = fs.mkdtempSync(path.join(REPO_ROOT, ".build-test-"));
    fs.writeFileSync(path.join(acpDir, "entry.mjs"), ACP_FIXTURE);
    const bundle = await rolldown({ input: path.join(acpDir, "entry.mjs"), platform: "node", plugins: [lazyAcpSchemas()], logLevel: "silent" });
    await bundle.write({ dir: path.join(acpDir, "out"), format: "esm", entryFileNames: "[name].js" });
    await bundle.close();
    acpCode = fs.readFileSync(path.join(acpDir, "out", "entry.js"), "utf8");
    acpOutput = JSON.parse(execFileSync(process.execPath, [path.join(acpDir, "out", "entry.js")], { encoding: "utf8" }));
  }, 60_000);
  afterAll(() => fs.rmSync(acpDir, { recursive: true, force: true }));

  it("wraps every generated schema in a stand-in built on first use", () => {
    const schemas = acpCode.match(/^const z[A-Z]\w* = .*$/gm) ?? [];
    expect(schemas.length).toBeGreaterThan(20);
    expect(schemas.filter((line) => !line.includes("= /* @__PURE__ */ lazySchema(() =>"))).toEqual([]);
    expect(acpCode).toMatch(/^const zInitializeRequest = /m);
  });

  it("still validates requests and delivers notifications through the stand-ins", () => {
    expect(acpOutput.initialize).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: false } });
    expect(acpOutput.session).toEqual({ sessionId: "s-1" });
    expect(acpOutput.invalid).toBe(-32602);
    expect(acpOutput.updates).toEqual(["hi from /tmp"]);
  });
});

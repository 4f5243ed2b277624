import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { fakeAgentCommand, isRunning, processesWithArgument } from "../helpers/acp-agent.js";
import { announcementsIn, askAndWait, eventually, messageText } from "../helpers/chat-session.js";

let server: FakeModelServer;
let gw: GatewayProcess | undefined;
let sock: TestSocket | undefined;

beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

describe("gateway SIGKILLed while an ACP child runs", () => {
  it("after the restart the orphaned agent is ended and exactly one outcome is announced", async () => {
    const stateDir = makeTempDir();
    const agentLog = path.join(stateDir, "agent.log");
    const config = fakeModelConfig(server, stateDir, {
      // The agent keeps running when its stdin closes, as an agent busy in a tool call would.
      acp: { enabled: true, defaultAgent: "fake", agents: { fake: fakeAgentCommand("--log", agentLog, "--ignore-stdin-end", "--marker", stateDir) } },
    });
    server.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "long job")
        return { toolCalls: [{ name: "sessions_spawn", arguments: { runtime: "acp", task: "refactor everything #slow:600000", label: "long" } }] };
      if (last.role === "tool") return { text: "started" };
      if (last.text.includes("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>")) return { text: "the long job did not finish" };
      return { text: "?" };
    });
    gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
    sock = (await openOperator(gw.url, gw.token)).sock;
    await askAndWait(sock, "crash-parent", "long job");
    const prompt = await eventually(async () => {
      const line = fs
        .readFileSync(agentLog, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .find((l) => l.method === "session/prompt");
      expect(line).toBeDefined();
      return line;
    });
    const agentPid: number = prompt.pid;

    sock.close();
    await gw.stop("SIGKILL");
    // The agent outlived the gateway: an orphan in its own process group.
    expect(isRunning(agentPid)).toBe(true);

    gw = await startGateway({ stateDir, token: gw.token });
    sock = (await openOperator(gw.url, gw.token)).sock;
    await eventually(async () => expect(isRunning(agentPid)).toBe(false));
    const [announcement] = await eventually(async () => {
      const list = await announcementsIn(sock!, "crash-parent");
      expect(list).toHaveLength(1);
      return list;
    });
    expect(messageText(announcement)).toContain("task: long");
    expect(messageText(announcement)).toContain("status: failed: the run was interrupted by a gateway restart before it finished");
    const records = JSON.parse(fs.readFileSync(path.join(stateDir, "acp", "sessions.json"), "utf8")).sessions;
    expect(records).toEqual([expect.objectContaining({ state: "stale", lastError: "its turn was interrupted by a gateway restart" })]);
    expect(gw.output()).toContain("ended an ACP agent process left running by the previous gateway");
    // The parent answers it once; nothing else arrives.
    await eventually(async () => {
      const history = (await sock!.request("chat.history", { sessionKey: "crash-parent", limit: 100 })).payload.messages;
      expect(messageText(history.at(-1))).toBe("the long job did not finish");
    });
    expect(await announcementsIn(sock, "crash-parent")).toHaveLength(1);
    expect(processesWithArgument(stateDir).filter(isRunning)).toEqual([]);
  }, 120_000);
});

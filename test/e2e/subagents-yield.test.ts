import path from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { announcementsIn, askAndWait, chatHistory, eventually as retryUntil, messageText } from "../helpers/chat-session.js";
import { chatRequests, isSubagentRequest, lastMessageOf, lastToolResultOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";

const BEGIN = "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>";

const fakes = useFakeModelGateway({
  operator: true,
  extra: (stateDir) => ({
    agents: {
      defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } },
      entries: {
        main: { default: true, name: "Main", subagents: { allowAgents: ["worker"] } },
        worker: { name: "Worker", model: "fake/fake-worker-model" },
        secret: {},
      },
    },
  }),
});

const ask = (sessionKey: string, message: string) => askAndWait(fakes.sock, sessionKey, message, 10_000);
const eventually = <T>(check: () => Promise<T>) => retryUntil(check, 10_000);
/** The tool results the model was sent in the turn that began with this user message. */
const toolResultsAfter = (userText: string) =>
  chatRequests(fakes.model.requests)
    .filter((r) => lastMessageOf(r).role === "tool" && lastUserTextOf(r) === userText)
    .map(lastToolResultOf);

describe("agents_list", () => {
  it("lists the agents sessions_spawn accepts from this session, its own first, with the model each child would run on", async () => {
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "who can help") return { toolCalls: [{ name: "agents_list", arguments: {} }] };
      return { text: "listed" };
    });
    await ask("agents-list", "who can help");
    const request = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).role === "tool" && toolNamesOf(r).includes("agents_list"))!;
    // `secret` is configured but not in main's allowAgents: spawning as it would be refused, so it is not listed.
    expect(lastToolResultOf(request)).toEqual({
      requester: "main",
      allowAny: false,
      agents: [
        { id: "main", name: "Main", model: "fake/fake-model" },
        { id: "worker", name: "Worker", model: "fake/fake-worker-model" },
      ],
    });
  });
});

describe("sessions_yield", () => {
  it("ends the turn at once with the text written beside it; the child's result starts the next turn", async () => {
    let releaseChild!: () => void;
    const childMayAnswer = new Promise<void>((resolve) => (releaseChild = resolve));
    const parentCallsAfterYield: string[] = [];
    fakes.model.setResponder(async (req) => {
      if (isSubagentRequest(req)) {
        await childMayAnswer;
        return { text: "the answer is 42" };
      }
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "find it in the background")
        return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "find the answer", label: "finder" } }] };
      if (last.role === "tool" && lastToolResultOf(req)?.status === "accepted") {
        return { text: "Started a helper; I will report back.", toolCalls: [{ name: "sessions_yield", arguments: { message: "report the finder's answer" } }] };
      }
      if (last.role === "tool") parentCallsAfterYield.push(last.text);
      if (last.text.includes(BEGIN)) return { text: "The finder says 42." };
      return { text: "?" };
    });

    const reply = await ask("yield-parent", "find it in the background");
    // The turn ended on the yield, while the child was still running: no model call followed it.
    expect(reply.payload.message.content[0].text).toBe("Started a helper; I will report back.");
    expect(parentCallsAfterYield).toEqual([]);
    releaseChild();
    const [announcement] = await eventually(async () => {
      const list = await announcementsIn(fakes.sock, "yield-parent");
      expect(list).toHaveLength(1);
      return list;
    });
    expect(messageText(announcement)).toContain("the answer is 42");
    await eventually(async () => {
      const messages = await chatHistory(fakes.sock, "yield-parent");
      expect(messageText(messages.at(-1))).toBe("The finder says 42.");
    });
    // The resumed turn sees what the yield said: whom it waited for, and the note it left itself.
    const resumed = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).text.includes(BEGIN) && !isSubagentRequest(r))!;
    const results = resumed.body.messages.filter((m: any) => m.role === "tool").map((m: any) => JSON.parse(m.content));
    const yielded = results.find((r: any) => r.status === "yielded");
    expect(yielded).toMatchObject({ message: "report the finder's answer" });
    expect(yielded.waitingFor).toEqual([{ childSessionKey: expect.stringMatching(/^agent:main:subagent:/), label: "finder" }]);
  });

  it("with nothing to wait for, the call is refused and the turn goes on to an answer", async () => {
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "just wait") return { toolCalls: [{ name: "sessions_yield", arguments: {} }] };
      if (last.role === "tool") return { text: "Nothing is running; here is my answer." };
      return { text: "?" };
    });
    const reply = await ask("yield-nothing", "just wait");
    expect(reply.payload.message.content[0].text).toBe("Nothing is running; here is my answer.");
    expect(toolResultsAfter("just wait")).toEqual([expect.objectContaining({ error: "NOTHING_TO_WAIT_FOR" })]);
  });
});

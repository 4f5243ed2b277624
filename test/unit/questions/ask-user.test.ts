import { describe, expect, it } from "vitest";
import { isCommandButton } from "../../../src/agents/command-buttons.js";
import { normalizeAskUser, type AskUserArgs } from "../../../src/agents/questions/ask-user-params.js";
import { mayAskUser } from "../../../src/agents/questions/may-ask-user.js";
import { QuestionBroker, type Question } from "../../../src/agents/questions/question-broker.js";
import { answersFromText } from "../../../src/agents/questions/text-answers.js";
import { createAskUserTool } from "../../../src/agents/tools/ask-user.js";
import type { AskUserHost, ToolContext } from "../../../src/agents/types.js";
import { askUserHost } from "../../../src/gateway/ask-user-host.js";
import { addresseeIn, endedPrompt, optionButtons, questionPrompt, type QuestionChats } from "../../../src/gateway/question-chat.js";
import { mayAnswerInChat, notYourQuestion, type ChatSenders } from "../../../src/agents/questions/chat-answerers.js";

const question = (over: Partial<AskUserArgs["questions"][number]> = {}): AskUserArgs["questions"][number] => ({
  id: "target",
  header: "Target",
  question: "Where to?",
  options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
  ...over,
});

describe("ask_user arguments", () => {
  it("are made canonical: trimmed, headers cut to 12 characters, free text always offered, the wait kept within 30 s and 1 h", () => {
    const normalized = normalizeAskUser({
      questions: [
        question({
          header: "  A very long header  ",
          options: [
            { label: " One ", description: "  " },
            { label: "Two", description: " why " },
          ],
        }),
      ],
    });
    expect(normalized).toEqual({
      ok: true,
      timeoutMs: 900_000,
      questions: [{ questionId: "target", header: "A very long ", question: "Where to?", options: [{ label: "One" }, { label: "Two", description: "why" }], isOther: true }],
    });
    // The protocol's 12 counts UTF-16 units: an emoji is two, and is never split.
    expect(normalizeAskUser({ questions: [question({ header: "Go 🚀🚀🚀🚀" })] })).toMatchObject({ questions: [{ header: "Go 🚀🚀🚀🚀" }] });
    expect(normalizeAskUser({ questions: [question({ header: "Deploy 🚀🚀🚀" })] })).toMatchObject({ questions: [{ header: "Deploy 🚀🚀" }] });
    expect(normalizeAskUser({ questions: [question()], timeoutSeconds: 5 })).toMatchObject({ timeoutMs: 30_000 });
    expect(normalizeAskUser({ questions: [question()], timeoutSeconds: 99_999 })).toMatchObject({ timeoutMs: 3_600_000 });
  });

  it("refuse repeated ids, repeated options, an authored Other, and blank text", () => {
    expect(normalizeAskUser({ questions: [question(), question()] })).toEqual({ ok: false, problem: "each question needs its own id" });
    expect(normalizeAskUser({ questions: [question({ options: [{ label: "Yes" }, { label: "yes " }] })] })).toMatchObject({
      problem: "question target offers the same option twice",
    });
    expect(normalizeAskUser({ questions: [question({ options: [{ label: "Yes" }, { label: "Other (type it)" }] })] })).toMatchObject({
      problem: expect.stringContaining('"Other" option'),
    });
    expect(normalizeAskUser({ questions: [question({ question: "   " })] })).toMatchObject({ ok: false });
  });
});

describe("a typed reply as the answer", () => {
  const single: Question = { questionId: "target", header: "Target", question: "Where?", options: [{ label: "Staging" }, { label: "Production" }], isOther: true };
  const multi: Question = { ...single, questionId: "envs", header: "Envs", multiSelect: true, options: [{ label: "Dev" }, { label: "Test, QA" }, { label: "Prod" }] };

  it("reads an option's number or text (any case) as that option, anything else as free text", () => {
    expect(answersFromText([single], "2")).toEqual({ answers: { target: ["Production"] } });
    expect(answersFromText([single], " staging ")).toEqual({ answers: { target: ["Staging"] } });
    expect(answersFromText([single], "my laptop")).toEqual({ answers: { target: ["my laptop"] } });
    expect(answersFromText([{ ...single, isOther: false }], "my laptop")).toEqual({ problem: "That is not one of the choices. Reply with a number (1, 2) or an option's text." });
  });

  it("splits a multi-select reply on commas, keeping a label that holds one", () => {
    expect(answersFromText([multi], "1, 3, 1")).toEqual({ answers: { envs: ["Dev", "Prod"] } });
    expect(answersFromText([multi], "test, qa")).toEqual({ answers: { envs: ["Test, QA"] } });
  });

  it("answers several questions by key (id, header or number) or by line, and names a question left out", () => {
    const both = [single, { ...single, questionId: "size", header: "Size", options: [{ label: "S" }, { label: "L" }] }];
    expect(answersFromText(both, "size: L\ntarget = 1")).toEqual({ answers: { target: ["Staging"], size: ["L"] } });
    expect(answersFromText(both, "production\n1")).toEqual({ answers: { target: ["Production"], size: ["S"] } });
    expect(answersFromText(both, "Target: 2")).toEqual({ problem: "No answer for Size. Reply with one line per question, such as size: your answer." });
  });
});

describe("who may ask", () => {
  it("a conversation's own runs; not sub-agents, ACP, cron or webhook runs, nor the HTTP APIs' sessions", () => {
    expect(mayAskUser("agent:main:main", 0)).toBe(true);
    expect(mayAskUser("agent:main:telegram:direct:42", undefined)).toBe(true);
    expect(mayAskUser(undefined, 0)).toBe(false);
    expect(mayAskUser("agent:main:main", 1)).toBe(false);
    expect(mayAskUser("agent:main:subagent:0b6f6a52-2a4c-4a4e-9a57-7f5d4f1f4c11", 0)).toBe(false);
    expect(mayAskUser("agent:main:cron:nightly", 0)).toBe(false);
    expect(mayAskUser("agent:main:openai-user:alice", 0)).toBe(false);
    expect(mayAskUser("agent:main:openai:0b6f6a52", 0)).toBe(false);
  });
});

describe("the chat prompt", () => {
  const broker = new QuestionBroker();
  const record = broker.request({
    id: `ask_${"a".repeat(32)}`,
    runId: "r1",
    sessionKey: "agent:main:main",
    questions: [{ questionId: "target", header: "Target", question: "Where?", options: [{ label: "Staging", description: "safe" }, { label: "Production" }], isOther: true }],
  });

  it("numbers the options, says how to reply, and offers a button per option pressing /answer", () => {
    expect(questionPrompt(record)).toBe(
      [
        "❓ Question for you:",
        "",
        "**Target**",
        "Where?",
        "1. Staging - safe",
        "2. Production",
        "Other: reply with your own answer.",
        "",
        `Reply with the number, the option text, or your own answer. Or: /answer ${record.id} followed by your reply.`,
      ].join("\n"),
    );
    const rows = optionButtons(record);
    expect(rows).toEqual([
      [{ label: "Staging", data: `/answer ${record.id} 1` }],
      [{ label: "Production", data: `/answer ${record.id} 2` }],
      [{ label: "Other…", data: `/answer ${record.id}` }],
    ]);
    // A press is the presser's command; other data stays the agent's.
    expect(rows.flat().every((b) => isCommandButton(b.data))).toBe(true);
    expect(isCommandButton(`/answer ${record.id} some text`)).toBe(false);
    expect(isCommandButton(`/answer ${record.id}x`)).toBe(false);
    // A question without free text has no "Other…".
    const closed = broker.request({ questions: [{ ...record.questions[0]!, questionId: "closed", isOther: false }] });
    expect(optionButtons(closed).map(([b]) => b!.label)).toEqual(["Staging", "Production"]);
    expect(endedPrompt(record, { status: "answered", answers: { target: ["Production"] } })).toMatch(/\n\n✅ Answered: Production$/);
    expect(endedPrompt(record, { status: "expired" })).toMatch(/\n\n⌛ No answer in time\.$/);
  });

  it("has no buttons for a multi-select or several questions", () => {
    const multi = broker.request({ questions: [{ ...record.questions[0]!, questionId: "m", multiSelect: true }] });
    expect(optionButtons(multi)).toEqual([]);
    const two = broker.request({
      questions: [
        { ...record.questions[0]!, questionId: "a" },
        { ...record.questions[0]!, questionId: "b" },
      ],
    });
    expect(optionButtons(two)).toEqual([]);
  });

  it("names who the question is for in a group: who asked for the run, else the owners; in a direct chat, you", () => {
    const askers: ChatSenders = { senders: ["telegram:7"], name: "Alice" };
    expect(addresseeIn("group", askers)).toBe("Alice");
    expect(addresseeIn("channel", { senders: ["slack:U1"] })).toBe("the one who asked");
    expect(addresseeIn("group", undefined)).toBe("the assistant's owners");
    expect(addresseeIn("direct", askers)).toBe("you");
    expect(addresseeIn(undefined, undefined)).toBe("you");
    expect(questionPrompt(record, "Alice")).toMatch(/^❓ Question for Alice:\n/);
    expect(endedPrompt(record, { status: "cancelled" }, "Alice")).toMatch(/^❓ Question for Alice:\n[\s\S]*✖️ Cancelled\.$/);
  });
});

describe("who may answer in a chat", () => {
  const askers: ChatSenders = { senders: ["telegram:7", "telegram:8"], name: "Bob" };
  it("only the senders whose message started the run, owners included only when they are among them", () => {
    expect(mayAnswerInChat(askers, { key: "telegram:7", chatType: "group", owner: false })).toBe(true);
    expect(mayAnswerInChat(askers, { key: "telegram:8", chatType: "group", owner: false })).toBe(true);
    expect(mayAnswerInChat(askers, { key: "telegram:9", chatType: "group", owner: true })).toBe(false);
    // The same id on another channel is someone else.
    expect(mayAnswerInChat(askers, { key: "discord:7", chatType: "direct", owner: false })).toBe(false);
    expect(notYourQuestion(askers)).toBe("This question is for Bob: only they can answer it.");
  });
  it("for a run no chat message started: anyone in a direct chat, only owners in a group", () => {
    expect(mayAnswerInChat(undefined, { key: "telegram:9", chatType: "direct", owner: false })).toBe(true);
    expect(mayAnswerInChat(undefined, { key: "telegram:9", chatType: "group", owner: false })).toBe(false);
    expect(mayAnswerInChat(undefined, { key: "telegram:9", chatType: "group", owner: true })).toBe(true);
    expect(notYourQuestion(undefined)).toMatch(/for the assistant's owners/);
  });
});

describe("the ask_user tool against the gateway's questions", () => {
  const posted: string[] = [];
  const postedFor: (ChatSenders | undefined)[] = [];
  const chats = {
    post: async (r: { id: string }, askers?: ChatSenders) => {
      posted.push(r.id);
      postedFor.push(askers);
    },
  } as unknown as QuestionChats;
  const alice: ChatSenders = { senders: ["telegram:7"], name: "Alice" };
  const startedBy = (runId: string) => (runId === "run-1" ? alice : undefined);
  const ctx = (host: AskUserHost): ToolContext => ({
    agentId: "main",
    workspaceDir: "/tmp",
    sessionKey: "agent:main:main",
    runId: "run-1",
    senderIsOwner: true,
    services: { questions: host },
  });
  const args = { questions: [question()] };

  it("waits for the answer and returns it, one question per session at a time; the run's abort cancels it", async () => {
    const broker = new QuestionBroker();
    const tool = createAskUserTool();
    const host = askUserHost(broker, chats, startedBy);
    const first = tool.execute(args, ctx(host), new AbortController().signal, () => {});
    const waiting = broker.pendingIn("agent:main:main")!;
    expect(waiting).toMatchObject({ runId: "run-1", agentId: "main" });
    expect(posted).toContain(waiting.id);
    // The question is for whoever started the run; operators never see who that is.
    expect(broker.askersOf(waiting.id)).toEqual(alice);
    expect(postedFor.at(-1)).toEqual(alice);
    expect(waiting).not.toHaveProperty("askers");
    const second = await tool.execute(args, ctx(host), new AbortController().signal, () => {});
    expect(second.isError).toBe(true);
    expect(JSON.parse((second.content[0] as { text: string }).text)).toMatchObject({ error: "ASK_USER_REFUSED" });
    expect(broker.answerText(waiting.id, "production", "telegram:1")).toBeUndefined();
    const result = await first;
    expect((result.content[0] as { text: string }).text).toMatch(/^Target: Production\n\n/);
    expect(result.details).toEqual({ status: "answered", answers: { answers: { target: ["Production"] } } });

    const abort = new AbortController();
    const third = tool.execute(args, ctx(host), abort.signal, () => {});
    const id = broker.pendingIn("agent:main:main")!.id;
    abort.abort();
    expect((await third).details).toEqual({ status: "no_answer" });
    expect(broker.get(id)).toMatchObject({ status: "cancelled" });
  });

  it("is refused without the gateway's questions or with arguments that break the rules", async () => {
    const tool = createAskUserTool();
    const without = await tool.execute(args, { ...ctx(askUserHost(new QuestionBroker(), chats, startedBy)), services: {} }, new AbortController().signal, () => {});
    expect(JSON.parse((without.content[0] as { text: string }).text)).toMatchObject({ error: "ASK_USER_UNAVAILABLE" });
    const invalid = await tool.execute({ questions: [question(), question()] }, ctx(askUserHost(new QuestionBroker(), chats, startedBy)), new AbortController().signal, () => {});
    expect(JSON.parse((invalid.content[0] as { text: string }).text)).toMatchObject({ error: "ASK_USER_INVALID" });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askingModel } from "../helpers/ask-user-model.js";
import { inlineKeyboardOf, pressButton, startApprovalGateway, type ApprovalGateway } from "../helpers/exec-approval-chat.js";
import { sleep, waitUntil } from "../helpers/reliability.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * ask_user end to end: the agent's question is posted in the Telegram chat its run came from
 * (buttons for one single-choice question), answered by a press, a plain reply or an operator
 * client, and the answer is the tool's result in the model's next call. Real gateway, grammY
 * against the fake Bot API, the fake model.
 */
const OWNER = 4711;
const GROUP = -100_4711;
const ALICE = 5001;
const BOB = 5002;

describe("ask_user in a Telegram chat", { timeout: 120_000 }, () => {
  let setup: ApprovalGateway;
  let operator: TestSocket;
  let nextMessageId = 1;
  const say = (text: string) => setup.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text, messageId: nextMessageId++ });
  const promptsShown = () => setup.telegram.shown(OWNER).filter((text) => text.startsWith("❓ Question for you:"));
  const botSaid = (text: string) => waitUntil(() => setup.telegram.shown(OWNER).includes(text), 30_000, `the bot to say "${text}"`);
  /** The next question the operator client hears of (each test asks one). */
  const seen = new Set<string>();
  const nextQuestion = async () => {
    const frame = await operator.waitFor((f) => f.event === "question.requested" && !seen.has(f.payload.id), 30_000);
    seen.add(frame.payload.id);
    return { id: frame.payload.id as string, payload: frame.payload };
  };

  beforeAll(async () => {
    setup = await startApprovalGateway(OWNER, { dmPolicy: "allowlist", allowFrom: [String(OWNER)], groupPolicy: "open", requireMention: false });
    setup.model.setResponder(askingModel);
    ({ sock: operator } = await openOperator(setup.gw.url, setup.gw.token, { scopes: ["operator.admin"] }));
  });
  afterAll(async () => {
    operator?.close();
    await setup?.close();
  });

  it("posts the question with a button per option; a press answers it and the run goes on with the answer", async () => {
    say("pick a target");
    const { id, payload } = await nextQuestion();
    expect(payload).toMatchObject({
      id: expect.stringMatching(/^ask_[0-9a-f]{32}$/),
      runId: expect.any(String),
      status: "pending",
      questions: [{ questionId: "deploy_target", header: "Target", isOther: true, options: [{ label: "Staging (Recommended)", description: "safe" }, { label: "Production" }] }],
    });
    await setup.telegram.waitFor(() => setup.telegram.sent.some((c) => c.method === "editMessageReplyMarkup"), 30_000);
    const keyboard = setup.telegram.sent.find((c) => c.method === "editMessageReplyMarkup")!;
    expect(inlineKeyboardOf(keyboard)).toEqual([
      [{ text: "Staging (Recommended)", callback_data: `/answer ${id} 1` }],
      [{ text: "Production", callback_data: `/answer ${id} 2` }],
      [{ text: "Other…", callback_data: `/answer ${id}` }],
    ]);
    expect(promptsShown()[0]).toContain("1. Staging (Recommended) - safe\n2. Production\nOther: reply with your own answer.");

    pressButton(setup.telegram, { id: "cb-prod", fromId: OWNER, chatId: OWNER, messageId: Number(keyboard.body.message_id), data: `/answer ${id} 2` });
    await botSaid("Result: Target: Production");
    expect((await operator.waitFor((f) => f.event === "question.resolved" && f.payload.id === id)).payload).toEqual({
      id,
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    // The prompt now says how it ended, its buttons gone.
    await waitUntil(() => promptsShown().some((text) => text.endsWith("✅ Answered: Production")), 15_000, "the prompt's outcome");
  });

  it("takes a plain reply in the chat as the answer, starting no turn of its own", async () => {
    say("pick a target");
    await nextQuestion();
    await waitUntil(() => promptsShown().length >= 2, 30_000, "the second prompt");
    const asked = setup.model.requests.length;
    say("somewhere else entirely");
    await botSaid("Result: Target: somewhere else entirely");
    // Only the ask_user result went to the model: the reply itself was not a message for the agent.
    expect(setup.model.requests.slice(asked).map((r) => r.body.messages?.at(-1)?.role)).toEqual(["tool"]);
  });

  it("tells a reply that leaves a question unanswered what is missing, then takes the full answer", async () => {
    say("pick two");
    await nextQuestion();
    await waitUntil(() => promptsShown().some((text) => text.includes("1. Color") && text.includes("2. Size")), 30_000, "the two-question prompt");
    say("color: 2");
    await botSaid("⚠️ No answer for Size. Reply with one line per question, such as size: your answer.");
    say("color: blue\nsize: 1");
    await botSaid("Result: Color: Blue | Size: Small");
  });

  it("is answered from an operator client too (question.resolve)", async () => {
    say("pick a target");
    const { id } = await nextQuestion();
    expect((await operator.request("question.resolve", { id, answers: { answers: { deploy_target: ["Staging (Recommended)"] } } })).ok).toBe(true);
    await botSaid("Result: Target: Staging (Recommended)");
  });

  it("/stop cancels a waiting question, and the prompt says so", async () => {
    say("pick a target");
    const { id } = await nextQuestion();
    say("/stop");
    expect((await operator.waitFor((f) => f.event === "question.resolved" && f.payload.id === id, 30_000)).payload).toEqual({ id, status: "cancelled" });
    await waitUntil(() => promptsShown().some((text) => text.endsWith("✖️ Cancelled.")), 15_000, "the cancelled prompt");
  });

  it("in a group, is for the member who asked: another member's message goes to the agent and their press is refused", async () => {
    const inGroup = (fromId: number, fromName: string, text: string) => setup.telegram.pushMessage({ chatId: GROUP, fromId, fromName, text, messageId: nextMessageId++ });
    const groupSaid = (text: string) => waitUntil(() => setup.telegram.shown(GROUP).includes(text), 30_000, `the bot to say "${text}" in the group`);
    inGroup(ALICE, "Alice", "pick a target");
    const { id, payload } = await nextQuestion();
    await waitUntil(() => setup.telegram.shown(GROUP).some((text) => text.startsWith("❓ Question for Alice:")), 30_000, "the prompt naming Alice");
    const asked = setup.model.requests.length;

    pressButton(setup.telegram, { id: "cb-bob", fromId: BOB, chatId: GROUP, messageId: 1, data: `/answer ${id} 2` });
    await groupSaid("This question is for Alice: only they can answer it.");
    inGroup(BOB, "Bob", "production, obviously");
    // Bob's message is accepted as a message for the agent (in the transcript, queued behind the
    // waiting run), and the question still waits for Alice.
    const history = async () => JSON.stringify((await operator.request("chat.history", { sessionKey: payload.sessionKey })).payload);
    for (let tries = 0; !(await history()).includes("production, obviously"); tries++) {
      expect(tries, "Bob's message in the session's history").toBeLessThan(300);
      await sleep(50);
    }
    expect((await operator.request("question.get", { id })).payload).toMatchObject({ question: { status: "pending" } });

    inGroup(ALICE, "Alice", "1");
    expect((await operator.waitFor((f) => f.event === "question.resolved" && f.payload.id === id, 30_000)).payload).toMatchObject({
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    // The run goes on with Alice's answer, and Bob's message reaches the agent as his own.
    const carried = (r: (typeof setup.model.requests)[number]) => {
      const messages = r.body.messages as { role: string; content: unknown }[] | undefined;
      return (
        messages?.some((m) => m.role === "tool" && String(m.content).startsWith("Target: Staging (Recommended)")) === true &&
        messages.some((m) => m.role === "user" && String(m.content).includes("[Bob] production, obviously"))
      );
    };
    await waitUntil(() => setup.model.requests.slice(asked).some(carried), 30_000, "the answer and Bob's message in the model's next call");
  });

  it("in an operator's chat (chat.send), a plain message answers the waiting question; re-sent with its key, it changes nothing", async () => {
    const sessionKey = "agent:main:main";
    const sent = await operator.request("chat.send", { sessionKey, message: "pick a target", idempotencyKey: "op-ask-1" });
    expect(sent.payload).toMatchObject({ status: "started" });
    const runId = sent.payload.runId as string;
    const { id } = await nextQuestion();
    const asked = setup.model.requests.length;

    const answer = { sessionKey, message: "2", idempotencyKey: "op-answer-1" };
    expect((await operator.request("chat.send", answer)).payload).toEqual({ runId: "op-answer-1", status: "ok", answered: true, reply: "✅ Answer sent." });
    expect((await operator.waitFor((f) => f.event === "question.resolved" && f.payload.id === id, 30_000)).payload).toMatchObject({
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await operator.waitFor(
      (f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final" && JSON.stringify(f.payload).includes("Result: Target: Production"),
      30_000,
    );
    // The answer was the tool's result only: no message of its own reached the model.
    expect(setup.model.requests.slice(asked).map((r) => r.body.messages?.at(-1)?.role)).toEqual(["tool"]);

    // The same key again (a client's retry) is the answer already given, not a message for the agent.
    expect((await operator.request("chat.send", answer)).payload).toEqual({ runId: "op-answer-1", status: "ok" });
    expect(setup.model.requests.length).toBe(asked + 1);
  });
});

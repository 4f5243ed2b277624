import { LRUCache } from "lru-cache";
import type { ChatSenders } from "../agents/questions/chat-answerers.js";
import type { Question, QuestionOutcome, QuestionRecord } from "../agents/questions/question-broker.js";
import type { ChannelManager, SentChatMessage } from "../channels/channel-manager.js";
import type { ChatButton } from "../channels/types.js";
import { chatButtonsAllowed } from "../channels/config/chat-buttons.js";
import { onlyMessageOf, type ChatPromptDeps } from "./exec-approval-chat.js";
import { sessionChatRoute, type SessionChatRoute } from "./session-chat-route.js";

/**
 * ask_user's questions in the chat the session talks in: the questions with their numbered
 * options and how to reply (a number, an option's text, or one's own words; `/answer <id> …`
 * names the question). One single-choice question gets a button per option (Telegram, Discord,
 * Slack), each pressing `/answer <id> <number>`, and "Other…" pressing `/answer <id>`. Once the
 * question ends, the prompt is edited to say how, its buttons gone. In a group the prompt names
 * who the question is for (see mayAnswerInChat). A session that never talked in a chat gets no
 * prompt: its question is answered from the operator clients (`question.resolve`).
 */
export class QuestionChats {
  private readonly posted = new Map<string, { sent: SentChatMessage; record: QuestionRecord; addressee: string }>();
  /** How recent questions ended, for a prompt whose delivery finishes after its question did. */
  private readonly ended = new LRUCache<string, QuestionOutcome>({ max: 200 });

  constructor(private readonly deps: ChatPromptDeps) {}

  /**
   * Posts the question to its session's chat (or to `chat`, where the asker knows better);
   * resolves once posted (or not: failures are logged).
   */
  async post(record: QuestionRecord, askers?: ChatSenders, chat?: SessionChatRoute): Promise<void> {
    const channels = this.deps.channels();
    const route = chat ?? (record.sessionKey ? sessionChatRoute(this.deps.store.get(record.sessionKey)) : undefined);
    if (!channels || !route) return;
    const addressee = addresseeIn(route.chatType, askers);
    const text = questionPrompt(record, addressee);
    let result: Awaited<ReturnType<ChannelManager["send"]>>;
    try {
      result = await channels.send({ ...route, message: text, idempotencyKey: `ask-user:${record.id}` });
    } catch (err) {
      this.deps.logger.warn({ questionId: record.id, channel: route.channel, to: route.to, err: (err as Error).message }, "ask_user question not delivered to the chat");
      return;
    }
    const sent = onlyMessageOf(result, route);
    if (!sent) return;
    try {
      const rows = optionButtons(record);
      if (!this.ended.has(record.id)) {
        this.posted.set(record.id, { sent, record, addressee });
        if (rows.length > 0 && chatButtonsAllowed(this.deps.config(), sent)) await channels.attachButtons(sent, rows, text);
      }
      const ended = this.ended.get(record.id);
      if (ended) await channels.editSent(sent, endedPrompt(record, ended, addressee));
    } catch (err) {
      this.deps.logger.warn({ questionId: record.id, channel: route.channel, err: (err as Error).message }, "ask_user question posted, but its buttons or outcome not set");
    }
  }

  /** The question ended: its prompt says how, and loses its buttons. */
  resolved(id: string, outcome: QuestionOutcome): void {
    this.ended.set(id, outcome);
    const posted = this.posted.get(id);
    this.posted.delete(id);
    const channels = this.deps.channels();
    if (!posted || !channels) return;
    channels
      .editSent(posted.sent, endedPrompt(posted.record, outcome, posted.addressee))
      .catch((err: Error) => this.deps.logger.warn({ questionId: id, channel: posted.sent.channel, err: err.message }, "ask_user question not updated with its outcome"));
  }
}

/** Who the prompt says the question is for: "you" in a direct chat; in a group, who asked for the run, or the owners. */
export function addresseeIn(chatType: string | undefined, askers: ChatSenders | undefined): string {
  if (chatType === undefined || chatType === "direct") return "you";
  if (!askers) return "the assistant's owners";
  return askers.name ?? "the one who asked";
}

/** The prompt: the questions, their numbered options, and how to reply. */
export function questionPrompt(record: QuestionRecord, addressee = "you"): string {
  return [...questionLines(record.questions, addressee), "", replyGuidance(record)].join("\n");
}

function questionLines(questions: readonly Question[], addressee: string): string[] {
  const lines = [`❓ Question for ${addressee}:`];
  questions.forEach((question, index) => {
    // Bold, so that a Markdown renderer does not take the numbered header into the options' list.
    lines.push("", questions.length > 1 ? `**${index + 1}. ${question.header}**` : `**${question.header}**`, question.question);
    question.options.forEach((option, n) => lines.push(`${n + 1}. ${option.label}${option.description ? ` - ${option.description}` : ""}`));
    if (question.isOther) lines.push("Other: reply with your own answer.");
  });
  return lines;
}

function replyGuidance(record: QuestionRecord): string {
  const [first] = record.questions;
  const how =
    record.questions.length > 1
      ? `Reply with one line per question (${first!.questionId}: your answer), or the answers in order.`
      : first!.multiSelect
        ? "Reply with the option numbers or texts, comma-separated, or your own answer."
        : "Reply with the number, the option text, or your own answer.";
  return `${how} Or: /answer ${record.id} followed by your reply.`;
}

/** The prompt once the question ended: what was asked, and the answer or why there is none. */
export function endedPrompt(record: QuestionRecord, outcome: QuestionOutcome, addressee = "you"): string {
  const lines = questionLines(record.questions, addressee);
  if (outcome.status === "answered") {
    const answers = record.questions.map((q) => `${record.questions.length > 1 ? `${q.header}: ` : ""}${(outcome.answers[q.questionId] ?? []).join(", ")}`);
    return [...lines, "", `✅ Answered: ${answers.join("; ")}`].join("\n");
  }
  return [...lines, "", outcome.status === "expired" ? "⌛ No answer in time." : "✖️ Cancelled."].join("\n");
}

/**
 * A button per option for one single-choice question, and "Other…" (which asks for one's own
 * words) where free text is allowed; none when a press would not fit Telegram's 64 bytes.
 */
export function optionButtons(record: QuestionRecord): ChatButton[][] {
  const [question, ...others] = record.questions;
  if (!question || others.length > 0 || question.multiSelect) return [];
  const rows = question.options.map((option, n) => [{ label: option.label, data: `/answer ${record.id} ${n + 1}` }]);
  if (question.isOther) rows.push([{ label: "Other…", data: `/answer ${record.id}` }]);
  return rows.every(([button]) => Buffer.byteLength(button!.data) <= 64) ? rows : [];
}

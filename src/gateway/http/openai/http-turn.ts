import type { ConversationPort } from "../../../agents/conversation-port.js";
import { CHAT_COMMANDS, matchChatCommand } from "../../../conversations/commands/chat-commands.js";
import { wholeReplyText } from "../../../conversations/commands/chat-command-registry.js";
import type { OpenClawConfig } from "../../../config/index.js";
import type { SessionStore } from "../../../sessions/store/index.js";
import { operatorCommandContext, type ChatCommands } from "../../operator-commands.js";
import { QUEUE_FULL } from "./openai-errors.js";
import type { ChatTurnInput, ChatTurnResult } from "./types.js";

/**
 * `/v1/chat/completions` turns go through the same conversation service as `agent` and
 * `chat.send`: the same session lanes, transcripts and events. Stateless requests (a fresh
 * session) carry their own earlier messages; they are folded into the prompt as context.
 * OpenAI's API has no idempotency key, so the run gets a fresh id and no ledger record. A chat
 * command (`/stop`, `/new`, …) runs no turn: its reply, if it has one, is the completion's text.
 */
export function createHttpTurnRunner(conversations: ConversationPort, gateway: { config(): OpenClawConfig; sessions(): SessionStore }, commands: ChatCommands) {
  return async (input: ChatTurnInput): Promise<ChatTurnResult> => {
    const prior = (input.history ?? []).map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.text}`).join("\n\n");
    let message = prior ? `[Earlier messages in this conversation]\n${prior}\n\n[Current message]\n${input.message}` : input.message;
    const command = matchChatCommand(message, "operator", gateway.config());
    if (command) {
      const { sessionKey } = conversations.resolveSessionKey(input.sessionKey, input.agentId);
      let result;
      try {
        result = await CHAT_COMMANDS.run(command, operatorCommandContext(conversations, gateway, commands, { sessionKey, method: "http" }));
      } finally {
        // A stateless request keeps nothing: a session its command created (`/new` on a fresh key) goes too.
        if (input.stateless) conversations.discard(sessionKey);
      }
      // `/skill` hands the agent a message in place of the typed command; `/new <message>` its message.
      if (result.kind === "agent") message = result.text;
      else return { text: result.kind === "reply" ? await wholeReplyText(result) : "", usage: { input: 0, output: 0 }, stopReason: "stop" };
    }
    const outcome = await conversations.submit({
      message,
      sessionKey: input.sessionKey,
      agentId: input.agentId,
      method: "http",
      extraSystemPrompt: input.extraSystemPrompt,
      ...(input.stateless ? { ephemeral: true } : {}),
      acknowledgedWithAnswer: true,
      onEvent: (event) => {
        if (event.type === "message_update" && event.delta.kind === "text") input.onDelta(event.delta.text);
      },
    });
    if (outcome.kind === "rejected") return { text: "", usage: { input: 0, output: 0 }, stopReason: "error", error: { kind: QUEUE_FULL, message: outcome.notice } };
    if (outcome.kind !== "accepted") return { text: "", usage: { input: 0, output: 0 }, stopReason: "stop" };
    const onAbort = () => conversations.abort(outcome.run.sessionKey, outcome.run.runId);
    input.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const run = await outcome.run.done;
      const result = run.result;
      return {
        text: (result?.payloads ?? []).map((p) => p.text).join("\n\n"),
        usage: { input: result?.usage.input ?? 0, output: result?.usage.output ?? 0 },
        stopReason: result?.stopReason ?? run.status,
        ...(result?.error ? { error: result.error } : run.status === "aborted" ? { error: { kind: "aborted", message: "the run was aborted" } } : {}),
      };
    } finally {
      input.signal.removeEventListener("abort", onAbort);
    }
  };
}

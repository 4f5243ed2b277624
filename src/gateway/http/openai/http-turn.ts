import type { ConversationPort, TurnSettings } from "../../../agents/conversation-port.js";
import type { ClientToolCall } from "../../../agents/client-tools.js";
import { CHAT_COMMANDS, matchChatCommand } from "../../../conversations/commands/chat-commands.js";
import { wholeReplyText } from "../../../conversations/commands/chat-command-registry.js";
import type { OpenClawConfig } from "../../../config/index.js";
import type { SessionStore } from "../../../sessions/store/index.js";
import { operatorCommandContext, type ChatCommands } from "../../operator-commands.js";
import type { ClientMedia } from "../../client-media.js";
import type { ImageBlock } from "../../../models/messages.js";
import { QUEUE_FULL, TOOL_CHOICE_UNMET } from "./openai-errors.js";
import type { ChatTurnInput, ChatTurnResult } from "./types.js";

/**
 * `/v1/chat/completions` turns go through the same conversation service as `agent` and
 * `chat.send`: the same session lanes, transcripts and events. Stateless requests (a fresh
 * session) carry their own earlier messages; they are folded into the prompt as context.
 * OpenAI's API has no idempotency key, so the run gets a fresh id and no ledger record. A chat
 * command (`/stop`, `/new`, …) runs no turn: its reply, if it has one, is the completion's text;
 * a message with images is never a command. Its images are saved and shown to the agent as a
 * chat photo is (client-media.ts).
 */
export function createHttpTurnRunner(
  conversations: ConversationPort,
  gateway: { config(): OpenClawConfig; sessions(): SessionStore },
  commands: ChatCommands,
  clientMedia: ClientMedia,
) {
  return async (input: ChatTurnInput): Promise<ChatTurnResult> => {
    const prior = (input.history ?? []).map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.text}`).join("\n\n");
    let message = prior ? `[Earlier messages in this conversation]\n${prior}\n\n[Current message]\n${input.message}` : input.message;
    const command = input.images?.length ? undefined : matchChatCommand(message, "operator", gateway.config());
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
    let images: ImageBlock[] = [];
    let files: string[] = [];
    if (input.images?.length) {
      const { sessionKey } = conversations.resolveSessionKey(input.sessionKey, input.agentId);
      const attached = input.images.map((image) => ({ kind: "image" as const, ...image }));
      ({ message, images, files } = await clientMedia.forAgent(message, attached, { agentId: input.agentId, sessionKey }));
    }
    try {
      return await runMessage(conversations, input, message, images);
    } finally {
      // A stateless request keeps nothing: the images it sent go with its session.
      if (input.stateless) clientMedia.discard(files);
    }
  };
}

/** Submits the message as the request's turn and waits for its answer. */
async function runMessage(conversations: ConversationPort, input: ChatTurnInput, message: string, images: ImageBlock[]): Promise<ChatTurnResult> {
  const outcome = await conversations.submit({
    message,
    ...(images.length > 0 ? { images } : {}),
    sessionKey: input.sessionKey,
    agentId: input.agentId,
    method: "http",
    extraSystemPrompt: input.extraSystemPrompt,
    ...turnSettingsOf(input),
    ...(input.stateless ? { ephemeral: true } : {}),
    acknowledgedWithAnswer: true,
    onEvent: (event) => {
      if (event.type === "message_update" && event.delta.kind === "text") input.onDelta(event.delta.text);
    },
  });
  if (outcome.kind === "rejected") return { text: "", usage: { input: 0, output: 0 }, stopReason: "error", error: { kind: QUEUE_FULL, message: outcome.notice } };
  if (outcome.kind !== "accepted") return { text: "", usage: { input: 0, output: 0 }, stopReason: "stop" };
  const stopListening = input.client.onLeave(() => conversations.abort(outcome.run.sessionKey, outcome.run.runId));
  try {
    const run = await outcome.run.done;
    const result = run.result;
    const toolCalls = result?.clientToolCalls;
    const error = result?.error ?? (run.status === "aborted" ? { kind: "aborted", message: "the run was aborted" } : unmetToolChoice(input, toolCalls));
    return {
      text: (result?.payloads ?? []).map((p) => p.text).join("\n\n"),
      ...(toolCalls?.length ? { toolCalls } : {}),
      usage: { input: result?.usage.input ?? 0, output: result?.usage.output ?? 0 },
      stopReason: result?.stopReason ?? run.status,
      ...(error ? { error } : {}),
    };
  } finally {
    stopListening();
  }
}

/** The request's own turn settings: its sampling fields, its client tools. */
function turnSettingsOf(input: ChatTurnInput): { turnSettings?: TurnSettings } {
  const tools = input.clientTools;
  const settings: TurnSettings = {
    ...(input.modelParams ? { modelParams: input.modelParams } : {}),
    ...(tools?.tools ? { clientTools: tools.tools } : {}),
    ...(tools?.choice ? { clientToolChoice: tools.choice } : {}),
  };
  return Object.keys(settings).length > 0 ? { turnSettings: settings } : {};
}

/** A run that answered without the client tool call `tool_choice` required failed, as OpenClaw says it does. */
function unmetToolChoice(input: ChatTurnInput, calls: readonly ClientToolCall[] | undefined): ChatTurnResult["error"] {
  const choice = input.clientTools?.choice;
  if (!choice) return undefined;
  const wanted = typeof choice === "object" ? choice.name : undefined;
  if (calls?.some((call) => wanted === undefined || call.name === wanted)) return undefined;
  return { kind: TOOL_CHOICE_UNMET, message: `the agent answered without calling ${wanted ? `the client tool ${wanted}` : "a client tool"}, which tool_choice requires` };
}

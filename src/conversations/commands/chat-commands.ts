import { skillCommandNames, skillInstruction } from "./skill-commands.js";
import type { InvocableSkill } from "../../agents/skills/invocable-skills.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import { labelTakenBy, readLabel } from "../../sessions/session-label-rules.js";
import { topicTitle } from "../../sessions/session-title.js";
import type { TranscriptMessage } from "../../models/messages.js";
import { runCompactCommand } from "../compact-command.js";
import { ChatCommandRegistry, type ChatCommandContext, type ChatCommandResult, type ChatSurface, type MatchedCommand } from "./chat-command-registry.js";
import type { OpenClawConfig } from "../../config/index.js";
import { modelCommand, reasoningCommand, thinkCommand, verboseCommand, type SessionControlDeps } from "./session-control-commands.js";
import { checkModelChoice } from "../../agents/session-controls.js";
import { contextText, statusCard } from "./status-card.js";
import { usageCommand } from "./usage-command.js";
import { runConfigCommand } from "./config-command.js";
import { runDebugCommand } from "./debug-command.js";
import { runMcpCommand } from "./mcp-command.js";
import { runAllowlistCommand } from "./allowlist-command.js";
import { runBashCommand } from "./bash-command.js";
import { elevatedCommand } from "./elevated-command.js";
import { runRestartCommand } from "./restart-command.js";
import { runTtsCommand } from "./tts-command.js";
import { runGoalCommand } from "./goal-command.js";

export const QUEUE_MODES = ["steer", "followup", "collect", "interrupt"] as const;
export type ChatQueueMode = (typeof QUEUE_MODES)[number];

const NO_SUBAGENTS = "Sub-agents are not available on this gateway.";
const reply = (text: string): ChatCommandResult => ({ kind: "reply", text });

/**
 * Every chat command the gateway answers itself, in `/help` order. A new command is one
 * `register` call here; its handler gets what it needs from the context (see
 * docs/architecture.md, "Chat commands").
 */
export const CHAT_COMMANDS = new ChatCommandRegistry();

CHAT_COMMANDS.register({
  name: "stop",
  aliases: ["abort", "cancel"],
  bareWords: ["stop"],
  description: "stop the running reply",
  handler: async (_args, ctx) => {
    const stopped = await ctx.conversations.stop(ctx.sessionKey);
    return { kind: "stopped", runIds: stopped.runIds, subagents: stopped.subagents };
  },
});

/**
 * `/new [model] [message]`, `/reset [model] [message]` (and a `session.resetTriggers` phrase): a
 * new transcript for the session. A first word that names a model (an alias, a listed model id,
 * or `provider/model`, which must be one) chooses it for the session, for the owner only; the
 * rest is the new session's first message, run under the message's key (the reset takes
 * `<key>:reset`, so a re-sent message resets once and runs once).
 */
const resetSession =
  (command: "new" | "reset") =>
  (args: string, ctx: ChatCommandContext): ChatCommandResult => {
    const split = splitResetArgs(args, parseSessionKey(ctx.sessionKey).agentId, ctx.config());
    if ("problem" in split) return reply(split.problem);
    if (split.model) {
      if (!ctx.senderIsOwner) return reply(`Choosing a model with /${command} is for the bot owner only (commands.ownerAllowFrom); /${command} alone starts over.`);
      sessionControls(ctx).patch({ modelOverride: split.model, modelOverrideSource: "user" });
    }
    const idempotencyKey = split.message && ctx.idempotencyKey ? `${ctx.idempotencyKey}:reset` : ctx.idempotencyKey;
    const outcome = ctx.conversations.reset({ sessionKey: ctx.sessionKey, idempotencyKey, method: ctx.method, command });
    // The text after the command goes on to the agent as the new session's first message.
    return split.message ? { kind: "agent", text: split.message } : { kind: "reset", outcome };
  };

function splitResetArgs(args: string, agentId: string, config: OpenClawConfig): { model?: string; message: string } | { problem: string } {
  const text = args.trim();
  const first = text.split(/\s/, 1)[0]!;
  if (!first) return { message: "" };
  const checked = checkModelChoice(first, agentId, config, process.env);
  if (checked.ok) return { model: checked.ref, message: text.slice(first.length).trim() };
  // A word with a slash is meant as `provider/model`: say what is wrong with it rather than send it on.
  if (first.includes("/")) return { problem: checked.message };
  return { message: text };
}

CHAT_COMMANDS.register({
  name: "new",
  args: "[model] [message]",
  category: "session",
  description: "start a new session (the old transcript is kept on disk), optionally with another model and a first message",
  handler: resetSession("new"),
});
CHAT_COMMANDS.register({
  name: "reset",
  args: "[model] [message]",
  category: "session",
  description: "start a new session, optionally with another model and a first message",
  handler: resetSession("reset"),
});

/**
 * The chat command `text` runs on `surface`: a registered one, or a `session.resetTriggers`
 * phrase (the whole message, or its start followed by a space; any case), which runs as `/new`
 * with the rest of the message. Undefined for a message to the agent.
 */
export function matchChatCommand(text: string, surface: ChatSurface, config: OpenClawConfig): MatchedCommand | undefined {
  const command = CHAT_COMMANDS.match(text, surface);
  if (command) return command;
  const triggers = config.session?.resetTriggers;
  if (!triggers?.length) return undefined;
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  for (const trigger of triggers) {
    const phrase = trigger.trim().toLowerCase();
    if (lower === phrase || (lower.startsWith(phrase) && /\s/.test(lower.charAt(phrase.length)))) return CHAT_COMMANDS.match(`/new ${trimmed.slice(phrase.length)}`, surface);
  }
  return undefined;
}

CHAT_COMMANDS.register({
  name: "steer",
  args: "<message>",
  category: "session",
  description: "hand a message to the reply being written, at its next model call",
  handler: async (args, ctx) => {
    if (!args) return reply("Usage: /steer <message>");
    if (!ctx.conversations.isActive(ctx.sessionKey)) return reply("Nothing is running to steer; send it as a normal message.");
    const outcome = await ctx.conversations.submit({
      message: args,
      sessionKey: ctx.sessionKey,
      method: ctx.method,
      queueMode: "steer",
      senderIsOwner: ctx.senderIsOwner,
      ...(ctx.idempotencyKey ? { idempotencyKey: `${ctx.idempotencyKey}:steer` } : {}),
    });
    return reply(outcome.kind === "rejected" ? outcome.notice : "Steering the current reply.");
  },
});

CHAT_COMMANDS.register({
  name: "skill",
  args: "<name> [input]",
  category: "tools",
  description: "run one of the agent's skills (skills marked user-invocable: false are not offered)",
  handler: async (args, ctx) => {
    if (!ctx.skills) return reply("Skills are not available here.");
    const skills = await ctx.skills(parseSessionKey(ctx.sessionKey).agentId);
    const [name, ...rest] = args.split(/\s+/);
    const list = skills.length ? `Skills: ${skills.map((s) => s.name).join(", ")}.` : "This agent has no skills a user may run.";
    if (!name) return reply(`Usage: /skill <name> [input]. ${list}`);
    const skill = skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!skill) return reply(`No skill "${name}" for this agent. ${list}`);
    return { kind: "agent", text: skillInstruction(skill, rest.join(" ").trim()) };
  },
});

CHAT_COMMANDS.register({
  name: "approve",
  args: "<id> <allow-once|allow-always|deny>",
  category: "tools",
  ownerOnly: true,
  authorize: (ctx) => {
    if (ctx.execApprover === undefined) return ctx.senderIsOwner ? undefined : { refusal: "/approve is for the bot owner only (commands.ownerAllowFrom)." };
    return ctx.execApprover
      ? undefined
      : { refusal: `/approve is for this chat's exec approvers only (channels.${ctx.chat?.channel}.execApprovals.approvers, else commands.ownerAllowFrom).` };
  },
  audience: "owner only; on Telegram, Discord and Slack, the account's exec approvers",
  description: "answer a pending exec approval",
  handler: (args, ctx) => {
    const [id, decision] = args.split(/\s+/);
    if (!id || !decision) return reply("Usage: /approve <id> <allow-once|allow-always|deny>");
    if (!ctx.approve) return reply("Exec approvals are not available here.");
    return reply(ctx.approve(id, decision.toLowerCase(), ctx.chat ? `${ctx.chat.channel}:${ctx.chat.senderId}` : ctx.method));
  },
});

CHAT_COMMANDS.register({
  name: "answer",
  args: "<id> [reply]",
  category: "session",
  description: "answer the agent's question (ask_user) in this conversation: an option's number or text, or your own words (without a reply: how to give your own)",
  handler: (args, ctx) => {
    const match = /^(\S+)(?:\s+([\s\S]+))?$/.exec(args.trim());
    if (!match) return reply("Usage: /answer <id> <reply>");
    if (!ctx.answer) return reply("Questions are not available here.");
    const by = ctx.chat ? { chat: { key: `${ctx.chat.channel}:${ctx.chat.senderId}`, chatType: ctx.chat.chatType, owner: ctx.senderIsOwner } } : { operator: ctx.method };
    return reply(ctx.answer(ctx.sessionKey, match[1]!, match[2]?.trim() ?? "", by));
  },
});

CHAT_COMMANDS.register({
  name: "name",
  args: "[title]",
  category: "session",
  description: "name this session (its label in the session lists); no title: the current name and a suggestion",
  handler: (args, ctx) => {
    const current = ctx.sessions.get(ctx.sessionKey)?.label;
    if (!args.trim()) {
      const suggestion = suggestedName(ctx.conversations.history(ctx.sessionKey));
      const now = current ? `This session is named "${current}".` : "This session has no name.";
      return reply(`${now}${suggestion && suggestion !== current ? ` Suggestion: /name ${suggestion}` : ""}`);
    }
    const read = readLabel(args);
    if (!read.ok) return reply(`Not named: ${read.problem}.`);
    const label = read.label!;
    const taken = labelTakenBy(ctx.sessions.list(parseSessionKey(ctx.sessionKey).agentId), label, ctx.sessionKey);
    if (taken) return reply(`Not named: ${taken}. Choose another name.`);
    sessionControls(ctx).patch({ label });
    return reply(`This session is now named "${label}".`);
  },
});

CHAT_COMMANDS.register({
  name: "goal",
  args: "[status|start|edit|pause|resume|complete|block|clear] [objective or note]",
  category: "session",
  description: "show or manage this session's goal: the objective the agent keeps pursuing across turns",
  handler: runGoalCommand,
});

CHAT_COMMANDS.register({
  name: "tools",
  args: "[verbose]",
  category: "status",
  description: "the tools the agent can use now in this conversation, for you; verbose: with what each does",
  handler: async (args, ctx) => {
    if (!ctx.tools) return reply("The tool list is not available here.");
    const verbose = args.trim().toLowerCase() === "verbose";
    const tools = await ctx.tools(ctx.sessionKey, ctx.senderIsOwner, ctx.chat?.channel);
    if (tools.length === 0) return reply("No tools: the tool policy leaves this conversation none.");
    const lines = verbose ? tools.map((t) => `• ${t.name} — ${firstSentenceOf(t.description)}`) : [tools.map((t) => t.name).join(", ")];
    return reply([`Tools (${tools.length}):`, ...lines, ...(verbose ? [] : ["/tools verbose says what each does."])].join("\n"));
  },
});

CHAT_COMMANDS.register({
  name: "btw",
  aliases: ["side"],
  args: "<question>",
  category: "session",
  description: "ask a side question about this conversation; neither it nor the answer is added to it",
  handler: (args, ctx) => {
    const question = args.trim();
    if (!question) return reply("Usage: /btw <question> — asks about this conversation without adding to it.");
    const answer = ctx.conversations.sideQuestion(ctx.sessionKey, question).then((a) => (a.ok ? `BTW: ${a.text}` : `BTW failed: ${a.reason}`));
    // A chat goes on while the model answers: the answer follows when it is ready.
    if (ctx.surface === "channel") return { kind: "reply", text: "", followUp: answer };
    return answer.then(reply);
  },
});

CHAT_COMMANDS.register({
  name: "activation",
  args: "<always|mention>",
  category: "options",
  ownerOnly: true,
  description: "in this group: answer every message, or only when mentioned",
  handler: (args, ctx) => {
    const mode = args.toLowerCase();
    const current = ctx.sessions.get(ctx.sessionKey)?.groupActivation ?? "mention";
    if (!mode) return reply(`Activation: ${current}. Choose always or mention.`);
    if (mode !== "always" && mode !== "mention") return reply(`Unknown activation "${args}". Choose always or mention.`);
    if (ctx.chat && ctx.chat.chatType === "direct") return reply("Activation applies to groups; direct messages are always answered.");
    sessionControls(ctx).patch({ groupActivation: mode === "mention" ? null : "always" });
    return reply(mode === "always" ? "Activation: always — every message in this group is answered." : "Activation: mention — only messages that mention the bot are answered.");
  },
});

CHAT_COMMANDS.register({
  name: "compact",
  description: "[instructions] — summarize the older part of this conversation now",
  handler: async (args, ctx) => reply(await runCompactCommand(ctx.sessionKey, args, (key, instructions) => ctx.conversations.compact(key, instructions))),
});

CHAT_COMMANDS.register({
  name: "status",
  description: "model, tokens, context use, cost, queue mode and session age",
  category: "status",
  handler: (_args, ctx) => reply(statusCard(ctx)),
});

CHAT_COMMANDS.register({
  name: "usage",
  description: "the usage line under each reply: off, tokens, full (with estimated cost), reset; no argument: the next one; cost: this session's totals",
  args: "[off|tokens|full|reset|cost]",
  category: "status",
  handler: (args, ctx) => reply(usageCommand(args, ctx, sessionControls(ctx))),
});

CHAT_COMMANDS.register({
  name: "tts",
  // Discord's client has a /tts of its own: the menu there offers /voice (OpenClaw's name for it).
  aliases: ["voice"],
  description: "text-to-speech: status, on|off|always|inbound|default (Auto-TTS for this chat), or audio <text> to hear it once",
  args: "[status|on|off|always|inbound|default|chat on|off|default|audio <text>]",
  category: "media",
  handler: async (args, ctx) => reply(await runTtsCommand(args, ctx)),
});

CHAT_COMMANDS.register({
  name: "context",
  description: "how much of the model's context window this session uses",
  category: "status",
  handler: (_args, ctx) => reply(contextText(ctx)),
});

CHAT_COMMANDS.register({
  name: "model",
  description: "show the model | list | <provider/model or alias> for this session | default",
  ownerOnly: true,
  handler: (args, ctx) => reply(modelCommand(args, sessionControls(ctx))),
});

// OpenClaw's `/models`: the list of `/model list`.
CHAT_COMMANDS.register({
  name: "models",
  description: "list the models /model can choose",
  ownerOnly: true,
  handler: (_args, ctx) => reply(modelCommand("list", sessionControls(ctx))),
});

CHAT_COMMANDS.register({
  name: "think",
  aliases: ["thinking", "t"],
  description: "show | <level> — thinking level for this session (off, minimal, low, medium, high, xhigh, adaptive, max)",
  ownerOnly: true,
  handler: (args, ctx) => reply(thinkCommand(args, sessionControls(ctx))),
});

CHAT_COMMANDS.register({
  name: "elevated",
  aliases: ["elev"],
  description: "show | on | off | ask | full | default [message] — exec outside a sandboxed session's sandbox, for senders tools.elevated admits",
  args: "[level] [message]",
  category: "options",
  handler: (args, ctx) => elevatedCommand(args, ctx),
});

CHAT_COMMANDS.register({
  name: "reasoning",
  aliases: ["reason"],
  description: "show | on | off | stream | default — show the model's reasoning: a message before the reply (on), or in the live draft (stream)",
  args: "[level]",
  handler: (args, ctx) => reply(reasoningCommand(args, sessionControls(ctx))),
});

CHAT_COMMANDS.register({
  name: "verbose",
  aliases: ["v"],
  description: "on | off | full — list tool calls before replies (no argument toggles)",
  handler: (args, ctx) => reply(verboseCommand(args, sessionControls(ctx))),
});

CHAT_COMMANDS.register({
  name: "help",
  aliases: ["commands"],
  description: "this list",
  handler: (_args, ctx) => reply(CHAT_COMMANDS.helpText(ctx.surface)),
});

CHAT_COMMANDS.register({
  name: "whoami",
  aliases: ["id"],
  description: "your sender id on this channel",
  handler: (_args, ctx) => {
    const chat = ctx.chat;
    if (!chat) return reply([`You: the operator of this gateway (${ctx.method} client)`, `Owner: ${ctx.senderIsOwner ? "yes" : "no"}`, `Session: ${ctx.sessionKey}`].join("\n"));
    return reply(
      [
        `Channel: ${chat.channel} (account ${chat.accountId})`,
        `Your id: ${chat.senderId}${chat.senderUsername ? ` (@${chat.senderUsername})` : ""}`,
        `Chat: ${chat.to} (${chat.chatType})${chat.threadId ? `, thread ${chat.threadId}` : ""}`,
        `Owner: ${ctx.senderIsOwner ? "yes" : "no"}`,
        `Session: ${ctx.sessionKey}`,
      ].join("\n"),
    );
  },
});

CHAT_COMMANDS.register({
  name: "queue",
  description: "how messages sent during a reply are handled: steer | followup | collect | interrupt | default",
  args: "<mode>",
  category: "options",
  ownerOnly: true,
  handler: (args, ctx) => {
    const mode = args.toLowerCase();
    const current = ctx.sessions.get(ctx.sessionKey)?.queueMode;
    if (!mode) return reply(`Queue mode: ${current ?? "default"}. Choose one of: ${QUEUE_MODES.join(", ")}, default.`);
    if (mode !== "default" && !(QUEUE_MODES as readonly string[]).includes(mode)) return reply(`Unknown queue mode "${args}". Choose one of: ${QUEUE_MODES.join(", ")}, default.`);
    sessionControls(ctx).patch({ queueMode: mode === "default" ? null : (mode as ChatQueueMode) });
    return reply(mode === "default" ? "Queue mode for this session: back to the default." : `Queue mode for this session: ${mode}.`);
  },
});

CHAT_COMMANDS.register({
  name: "send",
  args: "<on|off|inherit>",
  category: "options",
  ownerOnly: true,
  description: "let the gateway send into this chat (on), keep it silent while the agent still reads it (off), or follow session.sendPolicy (inherit)",
  handler: (args, ctx) => {
    const word = args.trim().toLowerCase();
    const current = ctx.sessions.get(ctx.sessionKey)?.sendPolicy;
    if (!word) return reply(`Send policy: ${current === "allow" ? "on" : current === "deny" ? "off" : "inherit (session.sendPolicy)"}. Usage: /send on|off|inherit`);
    const mode = word === "on" || word === "allow" ? "allow" : word === "off" || word === "deny" ? "deny" : ["inherit", "default", "reset"].includes(word) ? null : undefined;
    if (mode === undefined) return reply(`Unknown send policy "${args.trim()}". Usage: /send on|off|inherit`);
    sessionControls(ctx).patch({ sendPolicy: mode });
    return reply(`Send policy set to ${mode === "allow" ? "on" : mode === "deny" ? "off" : "inherit"}.`);
  },
});

CHAT_COMMANDS.register({
  name: "allowlist",
  args: "[list|add|remove] [dm|group|all] [entry]",
  category: "management",
  description: "who may reach the bot on this channel: list, or (owner, commands.config) add and remove",
  handler: (args, ctx) => reply(runAllowlistCommand(args, ctx)),
});

CHAT_COMMANDS.register({
  name: "config",
  args: "show [path] | get <path> | set <path>=<value> | unset <path>",
  category: "management",
  ownerOnly: true,
  description: "read or change the gateway's config file (commands.config: true)",
  handler: (args, ctx) => reply(runConfigCommand(args, ctx)),
});

CHAT_COMMANDS.register({
  name: "debug",
  args: "show | set <path>=<value> | unset <path> | reset",
  category: "management",
  ownerOnly: true,
  description: "config values set in memory only, until a restart (commands.debug: true)",
  handler: (args, ctx) => reply(runDebugCommand(args, ctx)),
});

CHAT_COMMANDS.register({
  name: "mcp",
  args: "show [name] | get <name> | set <name>=<json> | unset <name>",
  category: "management",
  ownerOnly: true,
  description: "read or change the MCP servers of mcp.servers (commands.mcp: true)",
  handler: (args, ctx) => reply(runMcpCommand(args, ctx)),
});

CHAT_COMMANDS.register({
  name: "restart",
  category: "management",
  ownerOnly: true,
  description: "restart the gateway gracefully (commands.restart)",
  handler: (_args, ctx) => reply(runRestartCommand(ctx)),
});

CHAT_COMMANDS.register({
  name: "bash",
  args: "<command>",
  prefix: "!",
  category: "tools",
  ownerOnly: true,
  description: "run a shell command as the agent's exec would (commands.bash: true; also `! <command>`)",
  handler: async (args, ctx) => ({ kind: "reply", ...(await runBashCommand(args, ctx)) }),
});

CHAT_COMMANDS.register({
  name: "subagents",
  description: "list | kill <id> | steer <id> <text> | log <id> | info <id>",
  handler: async (args, ctx) => reply(ctx.subagents ? await ctx.subagents(ctx.sessionKey, args) : NO_SUBAGENTS),
});

CHAT_COMMANDS.register({
  name: "tasks",
  category: "status",
  description: "this session's background tasks: sub-agents and their status",
  handler: async (_args, ctx) => reply(ctx.tasks ? await ctx.tasks(ctx.sessionKey) : "Background tasks are not available here."),
});

CHAT_COMMANDS.register({
  name: "acp",
  description: "spawn | cancel | steer | close | status | sessions | doctor | help — external coding agents",
  ownerOnly: true,
  handler: async (args, ctx) => reply(ctx.acp ? await ctx.acp(ctx.sessionKey, args) : "ACP is not available on this gateway (acp.enabled is false)."),
});

CHAT_COMMANDS.register({
  name: "focus",
  description: "<#n|label|id> — send this thread's (or chat's) messages to that sub-agent",
  surfaces: ["channel"],
  handler: (args, ctx) => reply(ctx.focus ? ctx.focus.focus(args) : NO_SUBAGENTS),
});

CHAT_COMMANDS.register({
  name: "unfocus",
  description: "this thread (or chat) talks to its own session again",
  surfaces: ["channel"],
  handler: (_args, ctx) => reply(ctx.focus ? ctx.focus.unfocus() : NO_SUBAGENTS),
});

/** The session row the model / think / verbose commands read and change (created if this is the chat's first message). */
function sessionControls(ctx: ChatCommandContext): SessionControlDeps {
  const { sessionKey, sessions } = ctx;
  return {
    config: ctx.config(),
    env: process.env,
    sessionKey,
    entry: sessions.get(sessionKey),
    patch: (patch) => {
      sessions.ensure(sessionKey, { agentId: parseSessionKey(sessionKey).agentId });
      sessions.patch(sessionKey, patch);
    },
  };
}

/** The chat command a channel message runs (`/status`, `/queue collect`, `stop`); undefined for a message to the agent. */
export function parseControlCommand(text: string): MatchedCommand | null {
  return CHAT_COMMANDS.match(text, "channel") ?? null;
}

/** The agent's user-invocable skills by their own command names, clear of every chat command's name. */
export function skillCommands(skills: readonly InvocableSkill[]): Map<string, InvocableSkill> {
  return skillCommandNames(skills, CHAT_COMMANDS.names());
}

function firstSentenceOf(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/** What `/name` suggests: the topic the session lists derive from its first message (topicTitle). */
function suggestedName(history: readonly TranscriptMessage[]): string | undefined {
  const first = history.find((m) => m.role === "user" && !(m as { compactionSummary?: unknown }).compactionSummary);
  const content = (first as { content?: unknown } | undefined)?.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((b) => (typeof b?.text === "string" ? b.text : "")).join(" ") : "";
  return topicTitle(text);
}

import type { QuestionReplier } from "../../agents/questions/chat-answerers.js";
import type { ConversationPort, ResetOutcome, SubmitInput, TurnSettings } from "../../agents/conversation-port.js";
import type { ElevatedAccess } from "../../agents/sandbox/elevated-level.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import type { AutoTtsPreference } from "../../agents/speech/index.js";
import type { InvocableSkill } from "../../agents/skills/invocable-skills.js";
import type { GatewayAdminPort } from "./gateway-admin-port.js";
import type { GoalCommandPort } from "./goal-command.js";

/**
 * Where a message was typed: an operator client (WebSocket `chat.send` / `agent`, the OpenAI
 * route) or a chat channel (Telegram, Discord, Slack).
 */
export type ChatSurface = "operator" | "channel";

/** What a command may use; a surface fills in what it has. */
export interface ChatCommandContext {
  surface: ChatSurface;
  sessionKey: string;
  /** The message's idempotency key: a command that changes state records it, so a re-sent message does not repeat it. */
  idempotencyKey?: string;
  method: SubmitInput["method"];
  /** Operator clients are the owner; a channel sender is one when `commands.ownerAllowFrom` (or its DM allowlist) says so. */
  senderIsOwner: boolean;
  conversations: ConversationPort;
  config(): OpenClawConfig;
  /** The session rows (read, and patched by the session commands /model, /think, /verbose). */
  sessions: SessionStore;
  /** `/goal`: the sessions' goals; absent where the surface has none. */
  goals?: GoalCommandPort;
  /** `/subagents …` for the session; absent when the gateway has no sub-agents. */
  subagents?: (sessionKey: string, args: string) => Promise<string>;
  /** `/tasks`: the session's background tasks as a short list; absent where the surface has no task ledger. */
  tasks?: (sessionKey: string) => Promise<string>;
  /** `/acp …` for the session; absent when the gateway has no ACP control plane. */
  acp?: (sessionKey: string, args: string) => Promise<string>;
  /** `/tools`: what the session's next turn could use, for this sender (and chat channel); absent where the surface cannot tell. */
  tools?: (sessionKey: string, senderIsOwner: boolean, channel?: string) => Promise<{ name: string; description: string }[]>;
  /** `/skill`: the skills a user may run for an agent; absent where the surface cannot list them. */
  skills?: (agentId: string) => Promise<readonly InvocableSkill[]>;
  /** `/approve <id> <decision>`: answers a pending exec approval as `by`; returns the reply text. */
  approve?: (id: string, decision: string, by: string) => string;
  /** `/answer <id> <reply>`: answers the ask_user question `id` of this session as `by`, if it is theirs to answer (an empty reply: tells them how to give their own); returns the reply text. */
  answer?: (sessionKey: string, id: string, reply: string, by: QuestionReplier) => string;
  /** The chat message's sender and place (channel surface). */
  chat?: ChatPlace;
  /**
   * Whether the sender answers exec approvals in this chat, where the channel names its own
   * approvers (Telegram, Discord, Slack: `execApprovals.approvers`, else the owners' ids there; see chatExecApprovers); absent: the owners do.
   */
  execApprover?: boolean;
  /** The gateway's config file, restart and shell, for the owner's `/config`, `/allowlist`, `/restart`, `/bash`. */
  admin?: GatewayAdminPort;
  /** Whether `tools.elevated` admits the sender for the session's agent; absent: a surface without a chat sender (`agent`, HTTP). */
  elevated?: ElevatedAccess;
  /** Posting speech to this chat (`/tts audio`): where the audio is saved, and the upload; absent where the surface has no chat or may not answer there. */
  speech?: { dir: string; post(file: { path: string; fileName: string; voice?: boolean }): Promise<void> };
  /** The gateway's Auto-TTS mode (`tts.enable`/`tts.disable`), for `/tts status`; absent: the chat's and the config's decide. */
  autoTtsPreference?: AutoTtsPreference;
  /** Binding this chat or thread to a sub-agent (`/focus`, `/unfocus`), where the surface can. */
  focus?: { focus(target: string): string; unfocus(): string };
}

export interface ChatPlace {
  channel: string;
  accountId: string;
  senderId: string;
  senderUsername?: string;
  /** The chat replies go to. */
  to: string;
  chatType: string;
  threadId?: string;
}

/** What a command did: a reply to show, or the two outcomes each surface reports in its own shape. */
export type ChatCommandResult =
  /** `followUp`: more to say once it is known (a long `/bash`); the surface sends it after `text`, in the same chat. */
  | { kind: "reply"; text: string; followUp?: Promise<string> }
  | { kind: "stopped"; runIds: string[]; subagents: number }
  | { kind: "reset"; outcome: ResetOutcome }
  /**
   * Not answered by the gateway: this text goes to the agent instead of the typed command (`/skill`,
   * `/new <message>` once it has reset), with `settings` for its turn (an inline `/elevated`'s level).
   */
  | { kind: "agent"; text: string; settings?: Pick<TurnSettings, "elevated"> };

export interface ChatCommand {
  /** Typed as `/name`; matched without regard to case. */
  name: string;
  aliases?: readonly string[];
  /** One line for `/help`. */
  description: string;
  /** What follows the name, for menus and `/help` (`<mode>`, `[instructions]`); absent: it takes none. */
  args?: string;
  /** How `commands.list` groups it. */
  category?: "session" | "options" | "status" | "management" | "media" | "tools";
  /** Words that run it when they are the whole message, without a slash (`stop`). */
  bareWords?: readonly string[];
  /** A sign that runs it when a message starts with it, the rest being the arguments (`!` for /bash). */
  prefix?: string;
  /** Only the owner may run it (a channel sender in `commands.ownerAllowFrom`); others are told so. */
  ownerOnly?: boolean;
  /** Who else the owner-only rule lets in, or keeps out: a refusal to show, or undefined to let the sender run it. */
  authorize?(ctx: ChatCommandContext): { refusal?: string } | undefined;
  /** Who may run it, as help and menus say it, where `authorize` makes that more than "owner only". */
  audience?: string;
  /** Where it is a command; on other surfaces the text goes to the agent. Default: every surface. */
  surfaces?: readonly ChatSurface[];
  handler(args: string, ctx: ChatCommandContext): ChatCommandResult | Promise<ChatCommandResult>;
}

/** A reply's whole text, follow-up included, for surfaces that answer once (the `agent` method, the OpenAI route). */
export async function wholeReplyText(result: { text: string; followUp?: Promise<string> }): Promise<string> {
  return result.followUp ? `${result.text}\n\n${await result.followUp}` : result.text;
}

export interface MatchedCommand {
  name: string;
  /** What follows the command, trimmed. */
  args: string;
  spec: ChatCommand;
}

const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const COMMAND_LINE = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/;

/**
 * Chat commands register here like RPC methods do in the method registry: a name, aliases, who
 * may run it, where, and a handler. Every surface asks `match` once, before it submits a message
 * to the conversation core: a standalone message naming a command is answered by the gateway,
 * any other `/text` goes to the agent as ordinary text (skills and users use slashes too).
 */
export class ChatCommandRegistry {
  private readonly commands: ChatCommand[] = [];
  private readonly byName = new Map<string, ChatCommand>();
  private readonly byBareWord = new Map<string, ChatCommand>();
  private readonly byPrefix = new Map<string, ChatCommand>();

  register(command: ChatCommand): void {
    const names = [command.name, ...(command.aliases ?? [])].map((n) => n.toLowerCase());
    for (const name of names) {
      if (!COMMAND_NAME.test(name)) throw new Error(`chat command name "${name}" is not a word (letters, digits, _ and -, starting with a letter)`);
      if (this.byName.has(name)) throw new Error(`chat command registered twice: /${name}`);
    }
    for (const word of command.bareWords ?? []) if (this.byBareWord.has(word.toLowerCase())) throw new Error(`chat command word registered twice: ${word}`);
    if (command.prefix && this.byPrefix.has(command.prefix)) throw new Error(`chat command prefix registered twice: ${command.prefix}`);
    this.commands.push(command);
    if (command.prefix) this.byPrefix.set(command.prefix, command);
    for (const name of names) this.byName.set(name, command);
    for (const word of command.bareWords ?? []) this.byBareWord.set(word.toLowerCase(), command);
  }

  /** The command `text` runs on `surface`, or undefined when it is a message for the agent. */
  match(text: string, surface: ChatSurface): MatchedCommand | undefined {
    const trimmed = text.trim();
    const bare = this.byBareWord.get(trimmed.toLowerCase());
    const line = bare ? undefined : COMMAND_LINE.exec(trimmed);
    const prefixed = bare || line ? undefined : [...this.byPrefix].find(([sign]) => trimmed.startsWith(sign));
    const spec = bare ?? (line ? this.byName.get(line[1]!.toLowerCase()) : prefixed?.[1]);
    if (!spec || (spec.surfaces && !spec.surfaces.includes(surface))) return undefined;
    const args = prefixed ? trimmed.slice(prefixed[0].length) : (line?.[2] ?? "");
    return { name: spec.name, args: args.trim(), spec };
  }

  /** Runs a matched command for the sender in `ctx` (an owner-only command refuses others). */
  async run(command: MatchedCommand, ctx: ChatCommandContext): Promise<ChatCommandResult> {
    const decided = command.spec.authorize?.(ctx);
    if (decided?.refusal) return { kind: "reply", text: decided.refusal };
    if (!command.spec.authorize && command.spec.ownerOnly && !ctx.senderIsOwner)
      return { kind: "reply", text: `/${command.name} is for the bot owner only (commands.ownerAllowFrom).` };
    return command.spec.handler(command.args, ctx);
  }

  /** Every name and alias a command answers to, lowercased. */
  names(): ReadonlySet<string> {
    return new Set(this.byName.keys());
  }

  /** Every registered command, in registration order. */
  all(): readonly ChatCommand[] {
    return this.commands;
  }

  /** The commands of `surface`, as `/help` lists them. */
  helpText(surface: ChatSurface): string {
    const lines = this.commands
      .filter((c) => !c.surfaces || c.surfaces.includes(surface))
      .map((c) => `/${c.name}${c.args ? ` ${c.args}` : ""}${c.aliases?.length ? ` (/${c.aliases.join(", /")})` : ""} — ${describeCommand(c)}`);
    return ["Commands:", ...lines].join("\n");
  }
}

/** A command's description with who may run it, as help, menus and `commands.list` show it. */
export function describeCommand(command: ChatCommand): string {
  const audience = command.audience ?? (command.ownerOnly ? "owner only" : undefined);
  return audience ? `${command.description} (${audience})` : command.description;
}

import { Type, type TProperties, type TSchema } from "@sinclair/typebox";
import { BlockStreamingCoalesce, integer, NonEmptyString, StringList, stringEnum, withExpected } from "./primitives.js";
import { ToolPolicyRule, ToolsBySender } from "./tools.js";

const HttpUrl = withExpected(Type.String({ pattern: "^https?://\\S+$" }), "an http(s) URL");
const UrlPath = withExpected(Type.String({ pattern: "^/" }), 'a path starting with "/"');
const TelegramBotToken = withExpected(Type.String({ pattern: "^\\d+:[A-Za-z0-9_-]+$" }), "a bot token from @BotFather (<digits>:<secret>)");
/** Telegram's own rule for `secret_token`. */
const TelegramWebhookSecret = withExpected(Type.String({ pattern: "^[A-Za-z0-9_-]{1,256}$" }), "1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)");
const SlackBotToken = withExpected(Type.String({ pattern: "^xoxb-" }), "the bot token that starts with xoxb- (OAuth & Permissions page of the Slack app)");
const SlackAppToken = withExpected(Type.String({ pattern: "^xapp-" }), "an app-level token that starts with xapp- (Basic Information → App-Level Tokens)");

const DmPolicy = stringEnum(["pairing", "allowlist", "open", "disabled"]);
const GroupPolicy = stringEnum(["allowlist", "open", "disabled"]);

/** The tools in one chat: `tools` for everyone there, `toolsBySender` per sender (its match wins over `tools`). */
const ChatToolRules = {
  tools: Type.Optional(ToolPolicyRule),
  toolsBySender: Type.Optional(ToolsBySender),
};

/** Other bots' messages: dropped (false), heard (true), or heard only when they mention this bot ("mentions"). */
const AllowBots = Type.Union([Type.Boolean(), Type.Literal("mentions")]);

/** Per-chat overrides inside a group/guild/channel allowlist map (`"*"` is the wildcard key). */
const ChatEntry = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  requireMention: Type.Optional(Type.Boolean()),
  allowFrom: Type.Optional(StringList),
  users: Type.Optional(StringList),
  agentId: Type.Optional(NonEmptyString),
  /** Messages from other bots reach the agent in this chat, in place of the account's `allowBots`. */
  allowBots: Type.Optional(AllowBots),
  /** Added to the system prompt of turns answering this chat. */
  systemPrompt: Type.Optional(Type.String({ maxLength: 20_000 })),
  /** Only these of the agent's skills are offered in this chat. */
  skills: Type.Optional(StringList),
  ...ChatToolRules,
});

/** A Telegram group's or topic's entry: a chat entry plus its own `groupPolicy` (in place of the account's there). */
/** A Telegram group's or topic's entry: a chat entry plus its group policy, whether a recording is transcribed before the mention check, and its error notices. */
const ErrorPolicy = stringEnum(["always", "once", "silent"]);
const TelegramChatEntry = Type.Object({
  ...ChatEntry.properties,
  groupPolicy: Type.Optional(GroupPolicy),
  disableAudioPreflight: Type.Optional(Type.Boolean()),
  /** Failure notices here: every one, each distinct one once an hour, or none. */
  errorPolicy: Type.Optional(ErrorPolicy),
});

/** A Discord channel's entry: a chat entry plus the `roles` that replace its guild's there, and its own `ignoreOtherMentions`. */
const DiscordChannelEntry = Type.Object({ ...ChatEntry.properties, roles: Type.Optional(StringList), ignoreOtherMentions: Type.Optional(Type.Boolean()) });

/** What a heartbeat shows in a channel: its acknowledgements (`HEARTBEAT_OK`), its alerts, its status events. */
const HeartbeatVisibility = Type.Object({
  showOk: Type.Optional(Type.Boolean()),
  showAlerts: Type.Optional(Type.Boolean()),
  useIndicator: Type.Optional(Type.Boolean()),
});

/** Other bots' messages: how many a pair of bots may exchange in a window before the pair is muted (OpenClaw's bot loop protection). */
const BotLoopProtection = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  maxEventsPerWindow: Type.Optional(integer(1, 10_000)),
  windowSeconds: Type.Optional(integer(1, 86_400)),
  cooldownSeconds: Type.Optional(integer(0, 86_400)),
});

/** Which reactions become notices for the agent: none, those on the bot's messages (default), all, those by listed people. */
const ReactionNotifications = stringEnum(["off", "own", "all", "allowlist"]);

/**
 * Which implied facts count as a mention where one is required (each default true; read on Slack,
 * as OpenClaw). OpenClaw's `quotedBot` is left out: no channel here produces that fact.
 */
const ImplicitMentions = Type.Object({
  replyToBot: Type.Optional(Type.Boolean()),
  threadParticipation: Type.Optional(Type.Boolean()),
});

/** Which quoted text and group history reach the model: all of it, or only what allowlisted senders wrote (`allowlist_quote` keeps the quoted message). */
const ContextVisibility = stringEnum(["all", "allowlist", "allowlist_quote"]);

/** Keys every channel (and every account of it) understands: access, mentions, limits, delivery. */
const commonKeys = {
  heartbeatVisibility: Type.Optional(HeartbeatVisibility),
  contextVisibility: Type.Optional(ContextVisibility),
  /** Over `channels.defaults.botLoopProtection`, key by key (an account's over its channel's). */
  botLoopProtection: Type.Optional(BotLoopProtection),
  enabled: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
  dmPolicy: Type.Optional(DmPolicy),
  allowFrom: Type.Optional(StringList),
  groupPolicy: Type.Optional(GroupPolicy),
  groupAllowFrom: Type.Optional(StringList),
  requireMention: Type.Optional(Type.Boolean()),
  /**
   * The account's own mention patterns (a list), or where the agent's patterns apply (a policy:
   * `mode` allow or deny, with `allowIn` / `denyIn` conversation ids).
   */
  mentionPatterns: Type.Optional(
    Type.Union([StringList, Type.Object({ mode: Type.Optional(stringEnum(["allow", "deny"])), allowIn: Type.Optional(StringList), denyIn: Type.Optional(StringList) })]),
  ),
  historyLimit: Type.Optional(integer(0, 1_000)),
  /** Files in messages for the agent above this size (MB) are not saved; in place of `agents.defaults.mediaMaxMb`. */
  mediaMaxMb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2048 })),
  /** In a DM session of its own (not the shared main session), at most this many earlier user turns go to the model. */
  dmHistoryLimit: Type.Optional(integer(0, 100_000)),
  /** Per DM peer (its user id): `historyLimit` in place of `dmHistoryLimit`. An account's map replaces the channel's. */
  dms: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Object({ historyLimit: Type.Optional(integer(0, 100_000)) }))),
  allowBots: Type.Optional(AllowBots),
  maxLinesPerMessage: Type.Optional(integer(1, 10_000)),
  replyToMode: Type.Optional(stringEnum(["off", "first", "all"])),
  /** This channel's (or account's) `messages.responsePrefix`. */
  responsePrefix: Type.Optional(Type.String({ maxLength: 200 })),
  streaming: Type.Optional(
    Type.Object({
      mode: Type.Optional(stringEnum(["off", "partial", "block", "progress"])),
      throttleMs: Type.Optional(integer(250, 60_000)),
      /** `newline`: replies are split at paragraph breaks (a block reply ends at each one). */
      chunkMode: Type.Optional(stringEnum(["length", "newline"])),
      /** `mode: partial`: tool lines in the draft while tools run (default on), an exec's command with `commandText: raw`. */
      preview: Type.Optional(
        Type.Object({
          toolProgress: Type.Optional(Type.Boolean()),
          commandText: Type.Optional(stringEnum(["status", "raw"])),
          /** `mode: block`: the draft's steps, in characters (minChars at most maxChars). */
          chunk: Type.Optional(Type.Object({ minChars: Type.Optional(integer(1, 40_000)), maxChars: Type.Optional(integer(1, 40_000)) })),
        }),
      ),
      /** `mode: progress`: the status draft shown while the agent works. */
      progress: Type.Optional(
        Type.Object({
          label: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Literal(false)])),
          labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1 })),
          maxLines: Type.Optional(integer(1, 50)),
          maxLineChars: Type.Optional(integer(10, 1_000)),
          toolProgress: Type.Optional(Type.Boolean()),
          commandText: Type.Optional(stringEnum(["status", "raw"])),
        }),
      ),
      /** Block replies in this channel: `enabled` over `agents.defaults.blockStreamingDefault`, `coalesce` over `blockStreamingCoalesce`. */
      block: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), coalesce: Type.Optional(BlockStreamingCoalesce) })),
    }),
  ),
};

/** Characters per outgoing message, at most what the platform takes in one. */
function textChunkLimit(max: number, why: string) {
  return { textChunkLimit: Type.Optional(withExpected(integer(100, max), `integer 100-${max} (${why})`)) };
}

/** A platform command menu's own switches, over `commands.native` and `commands.nativeSkills` (Telegram and Discord have menus; Slack has none). */
const nativeCommandKeys = {
  commands: Type.Optional(
    Type.Object({
      native: Type.Optional(Type.Union([Type.Literal("auto"), Type.Boolean()])),
      nativeSkills: Type.Optional(Type.Union([Type.Literal("auto"), Type.Boolean()])),
    }),
  ),
};

/** Typing-indicator refresh while a reply is written; Slack has no typing indicator for bots, so it has no such key. */
const typingKeys = { typingIntervalSeconds: Type.Optional(integer(0, 60)) };

const telegramKeys = {
  ...typingKeys,
  ...nativeCommandKeys,
  ...textChunkLimit(4096, "Telegram refuses a longer message"),
  botToken: Type.Optional(TelegramBotToken),
  tokenFile: Type.Optional(Type.String()),
  apiRoot: Type.Optional(HttpUrl),
  webhookUrl: Type.Optional(HttpUrl),
  webhookSecret: Type.Optional(TelegramWebhookSecret),
  webhookPath: Type.Optional(NonEmptyString),
  pollingTimeoutSeconds: Type.Optional(integer(0, 50)),
  pollingRetryBaseMs: Type.Optional(integer(10, 600_000)),
  linkPreview: Type.Optional(Type.Boolean()),
  /** Failure notices in this account's chats (a group's or topic's own wins): always, once an hour per distinct notice, or never. */
  errorPolicy: Type.Optional(ErrorPolicy),
  /** Extra entries of the bot's `/` menu: menu entries only (a typed one reaches the agent as text). */
  customCommands: Type.Optional(Type.Array(Type.Object({ command: NonEmptyString, description: Type.String({ minLength: 1, maxLength: 256 }) }), { maxItems: 100 })),
  /** Reactions that become notices for the agent: none, those on the bot's messages (default), all. */
  reactionNotifications: Type.Optional(stringEnum(["off", "own", "all"])),
  groups: Type.Optional(Type.Record(Type.String(), Type.Intersect([TelegramChatEntry, Type.Object({ topics: Type.Optional(Type.Record(Type.String(), TelegramChatEntry)) })]))),
  /** The tools in one DM, by the peer's chat id (`"*"`: every DM without an entry of its own); an account's map replaces the channel's. */
  direct: Type.Optional(Type.Record(Type.String(), Type.Object(ChatToolRules))),
  /**
   * Where the bot may put inline buttons (exec approval questions): off, dm, group, all, or
   * allowlist (the default: everywhere, a press authorized as its sender's message). The legacy
   * list form `["inlineButtons"]` is `all`; an empty list inherits the channel's.
   */
  capabilities: Type.Optional(
    Type.Union([Type.Object({ inlineButtons: Type.Optional(stringEnum(["off", "dm", "group", "all", "allowlist"])) }), Type.Array(stringEnum(["inlineButtons"]))]),
  ),
  /** Exec approvals of runs in this account's chats; `enabled` is `auto` by default (on when an approver resolves). */
  execApprovals: Type.Optional(Type.Object(execApprovalsKeys(withExpected(Type.String({ pattern: "^(tg:|telegram:)?\\d+$" }), "a numeric Telegram user id")))),
};

/**
 * An account as an exec approval client: who answers the exec approvals of runs in its chats
 * (`approvers`: platform user ids; unset, the channel's owners in `commands.ownerAllowFrom`) and
 * where they are asked (`target`). `enabled` false: the run's chat is asked as on any channel.
 */
function execApprovalsKeys(approverId: TSchema) {
  return {
    enabled: Type.Optional(Type.Union([Type.Boolean(), Type.Literal("auto")])),
    approvers: Type.Optional(Type.Array(approverId)),
    /** dm (default): each approver's DM; channel: the run's chat; both. */
    target: Type.Optional(stringEnum(["dm", "channel", "both"])),
    agentFilter: Type.Optional(StringList),
    sessionFilter: Type.Optional(StringList),
  };
}

const discordKeys = {
  ...typingKeys,
  ...nativeCommandKeys,
  ...textChunkLimit(2000, "Discord refuses a longer message"),
  /** Break-glass: allow-list entries also match the sender's mutable username (default: ids only). */
  dangerouslyAllowNameMatching: Type.Optional(Type.Boolean()),
  token: Type.Optional(Type.String()),
  restApiUrl: Type.Optional(HttpUrl),
  suppressEmbeds: Type.Optional(Type.Boolean()),
  reconnectWatchdogMs: Type.Optional(integer(100, 3_600_000)),
  reconnectBackoffMaxMs: Type.Optional(integer(100, 3_600_000)),
  intents: Type.Optional(Type.Object({ messageContent: Type.Optional(Type.Boolean()) })),
  /** The bot's presence: its status and one activity (type 0 Playing, 1 Streaming with activityUrl, 2 Listening, 3 Watching, 4 Custom, 5 Competing). */
  status: Type.Optional(stringEnum(["online", "idle", "dnd", "invisible"])),
  activity: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  activityType: Type.Optional(integer(0, 5)),
  activityUrl: Type.Optional(HttpUrl),
  /** Exec approvals of runs in this account's chats, with buttons; off unless `enabled` is true or `auto`. */
  execApprovals: Type.Optional(
    Type.Object({
      ...execApprovalsKeys(withExpected(Type.String({ pattern: "^((discord:|user:)?\\d{17,20}|<@!?\\d{17,20}>)$" }), "a Discord user id (17-20 digits)")),
      /** The approvers' DM prompts are deleted once the request is answered or expires (default: edited to say how it ended). */
      cleanupAfterResolve: Type.Optional(Type.Boolean()),
    }),
  ),
  /**
   * The agent's own buttons (the `message` tool's): `enabled` false sends its messages without
   * them; `ttlMs` (default 30 min, at most 24 h) is how long a press still reaches the agent.
   */
  agentComponents: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), ttlMs: Type.Optional(integer(1, 86_400_000)) })),
  /** `@Handle` in the bot's messages becomes a mention of this user id (an account's map replaces the channel's). */
  mentionAliases: Type.Optional(
    // Each handle is checked by cross-field-rules (checkMentionAliases): a record's key pattern would let other keys through unchecked.
    Type.Record(Type.String(), withExpected(Type.String({ pattern: "^\\d{17,20}$" }), "a Discord user id (17-20 digits)")),
  ),
  guilds: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({
        requireMention: Type.Optional(Type.Boolean()),
        users: Type.Optional(StringList),
        roles: Type.Optional(StringList),
        channels: Type.Optional(Type.Record(Type.String(), DiscordChannelEntry)),
        /** Drop messages that mention another user or role, or reply to another bot, without mentioning this one. */
        ignoreOtherMentions: Type.Optional(Type.Boolean()),
        /** Reactions in this guild that become notices for the agent (`allowlist`: by the guild's `users`). */
        reactionNotifications: Type.Optional(ReactionNotifications),
        ...ChatToolRules,
      }),
    ),
  ),
};

const slackKeys = {
  ...textChunkLimit(40_000, "Slack cuts a longer message short"),
  /** Exec approvals of runs in this account's chats, with Block Kit buttons; off unless `enabled` is true or `auto`. */
  execApprovals: Type.Optional(
    Type.Object(execApprovalsKeys(withExpected(Type.String({ pattern: "^((slack:|user:)?[UWuw][A-Za-z0-9]{2,}|<@[UWuw][A-Za-z0-9]{2,}>)$" }), "a Slack user id (U… or W…)"))),
  ),
  /** Break-glass: allow-list entries also match the sender's mutable username (default: ids only). */
  dangerouslyAllowNameMatching: Type.Optional(Type.Boolean()),
  mode: Type.Optional(stringEnum(["socket", "http"])),
  botToken: Type.Optional(SlackBotToken),
  appToken: Type.Optional(SlackAppToken),
  signingSecret: Type.Optional(Type.String()),
  slackApiUrl: Type.Optional(HttpUrl),
  webhookPath: Type.Optional(UrlPath),
  unfurlLinks: Type.Optional(Type.Boolean()),
  /** Reactions that become notices for the agent (`allowlist`: by the people in `reactionAllowlist`). */
  reactionNotifications: Type.Optional(ReactionNotifications),
  reactionAllowlist: Type.Optional(StringList),
  /** Over `channels.defaults.implicitMentions`, flag by flag (an account's over its channel's). */
  implicitMentions: Type.Optional(ImplicitMentions),
  /** An emoji shortcode (`hourglass_flowing_sand`) on the message being answered, while the reply is written. */
  typingReaction: Type.Optional(NonEmptyString),
  /**
   * `initialHistoryLimit`: earlier messages of a thread read back when its own session starts (0: none);
   * `inheritParent`: a new thread session starts with its channel's conversation. An account's block replaces its channel's.
   */
  thread: Type.Optional(Type.Object({ initialHistoryLimit: Type.Optional(integer(0, 200)), inheritParent: Type.Optional(Type.Boolean()) })),
  channels: Type.Optional(Type.Record(Type.String(), ChatEntry)),
  slashCommand: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      name: Type.Optional(withExpected(Type.String({ pattern: "^/?[a-z0-9_-]{1,31}$" }), "a Slack command name such as openclaw (lowercase letters, digits, - and _)")),
      ephemeral: Type.Optional(Type.Boolean()),
    }),
  ),
};

/**
 * A channel block: its keys, plus `accounts.<id>` blocks with the same keys and `defaultAccount`.
 * (The account schema is wrapped in an intersection so docs list its keys once, on the block.)
 */
function channelBlock<P extends TProperties>(keys: P) {
  const account = Type.Intersect([Type.Object({ ...commonKeys, ...keys }), Type.Object({})]);
  return Type.Object({ ...commonKeys, ...keys, accounts: Type.Optional(Type.Record(Type.String(), account)), defaultAccount: Type.Optional(NonEmptyString) });
}

const channelSchemas = {
  telegram: Type.Optional(channelBlock(telegramKeys)),
  discord: Type.Optional(channelBlock(discordKeys)),
  slack: Type.Optional(channelBlock(slackKeys)),
};

/** The channels this gateway has: the channel blocks of `channels`. */
export const CHANNEL_IDS: readonly string[] = Object.keys(channelSchemas);

/** A channel's chats and DM peers, each pinned to a model (`provider/model` or an alias). */
const ModelsByChat = Type.Record(Type.String({ minLength: 1 }), NonEmptyString);

export const ChannelsSchema = Type.Object({
  ...channelSchemas,
  /** What every channel does where its own block says nothing. */
  defaults: Type.Optional(
    Type.Object({
      groupPolicy: Type.Optional(GroupPolicy),
      heartbeatVisibility: Type.Optional(HeartbeatVisibility),
      contextVisibility: Type.Optional(ContextVisibility),
      botLoopProtection: Type.Optional(BotLoopProtection),
      implicitMentions: Type.Optional(ImplicitMentions),
    }),
  ),
  /** `<channel>.<chat or peer id>`: the model a session there uses unless it chose its own (`/model`). */
  modelByChannel: Type.Optional(Type.Object({ telegram: Type.Optional(ModelsByChat), discord: Type.Optional(ModelsByChat), slack: Type.Optional(ModelsByChat) })),
});

const PeerKind = stringEnum(["direct", "group", "channel"]);

/**
 * `bindings[]`: route a channel conversation to an agent (most specific match wins), or with
 * `type: "acp"` bind one peer's chat to a persistent session of an external ACP agent.
 */
export const BindingsSchema = Type.Array(
  Type.Object({
    type: Type.Optional(stringEnum(["route", "acp"])),
    agentId: NonEmptyString,
    acp: Type.Optional(
      Type.Object(
        {
          mode: Type.Optional(stringEnum(["persistent", "oneshot"])),
          label: Type.Optional(NonEmptyString),
          cwd: Type.Optional(NonEmptyString),
        },
        { additionalProperties: false },
      ),
    ),
    match: Type.Object({
      channel: NonEmptyString,
      accountId: Type.Optional(NonEmptyString),
      peer: Type.Optional(Type.Object({ kind: Type.Optional(PeerKind), id: NonEmptyString })),
      guildId: Type.Optional(NonEmptyString),
      teamId: Type.Optional(NonEmptyString),
      roles: Type.Optional(StringList),
    }),
  }),
);

/** `commands.*`: slash commands typed in chats. */
/**
 * `accessGroups.<name>`: a sender list defined once and named in allowlists as
 * `accessGroup:<name>`. `members` is keyed by channel id (`telegram`, `discord`, `slack`), plus
 * `*` for entries checked on every channel; entries are that channel's allowlist ids.
 */
export const AccessGroupsSchema = Type.Record(
  Type.String({ minLength: 1 }),
  Type.Object({
    type: stringEnum(["message.senders"]),
    members: Type.Record(Type.String({ minLength: 1 }), StringList),
  }),
);

export const CommandsSchema = Type.Object({
  text: Type.Optional(Type.Boolean()),
  native: Type.Optional(Type.Union([Type.Literal("auto"), Type.Boolean()])),
  /** The agent's user-invocable skills in the platform command menus too (auto: Telegram and Discord). */
  nativeSkills: Type.Optional(Type.Union([Type.Literal("auto"), Type.Boolean()])),
  ownerAllowFrom: Type.Optional(StringList),
  /**
   * Who may run chat commands at all, per channel (`telegram`, `discord`, `slack`) or `*` for the
   * others: sender ids (`"*"` lets everyone). Set, it replaces the default (whoever may talk to the bot).
   */
  allowFrom: Type.Optional(Type.Record(Type.String({ minLength: 1 }), StringList)),
  /** `/bash` and `! cmd` for the owner, through the exec tool's policy and approvals (default off). */
  bash: Type.Optional(Type.Boolean()),
  /** How long `/bash` waits for a command's result before it answers "still running" (ms, 0 to 30000; default 2000). */
  bashForegroundMs: Type.Optional(integer(0, 30_000)),
  /** `/config` and `/allowlist add|remove`, which write the config file (default off). */
  config: Type.Optional(Type.Boolean()),
  /** `/debug`: config values set in memory only, over the file's, until a restart (default off). */
  debug: Type.Optional(Type.Boolean()),
  /** `/mcp`, which reads and writes `mcp.servers` (default off). */
  mcp: Type.Optional(Type.Boolean()),
  /** `/restart` (default on). */
  restart: Type.Optional(Type.Boolean()),
});

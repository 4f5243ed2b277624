import { parseSessionKey } from "../sessions/keys/index.js";
import type { InternalHookSink } from "../hooks/internal/types.js";
import type { StopTracker } from "../infra/shutdown-stages.js";
import fs from "node:fs";
import path from "node:path";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ConversationPort } from "../agents/conversation-port.js";
import type { IdempotencyLedger } from "../sessions/idempotency/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { TranscriptMessage } from "../agents/types.js";
import { PairingStore, type PairingRequest } from "./access/pairing-store.js";
import { agentButtonsRefusal } from "./config/chat-buttons.js";
import { CHANNEL_IDS, defaultAccountId, isChannelId, resolveChannelAccounts, unnamedAccountFix, type ChannelAccountConfig, type ChannelId } from "./config/channel-accounts.js";
import { InboundDispatcher, type InboundDispatchDeps } from "./dispatch/inbound-dispatcher.js";
import { InboundDedupeCache } from "./inbound/dedupe-cache.js";
import { HandedOver } from "./inbound/handed-over.js";
import { ParkedInbound } from "./inbound/parked-inbound.js";
import { ReplyRunIndex } from "./outbound/reply-run-index.js";
import { DeliveryLedger } from "./outbound/delivery-ledger.js";
import { ReplyDelivery, type AccountAvailability } from "./outbound/reply-delivery.js";
import type { CreatedAccount, IdleAccount, ManagedAccount } from "./managed-account.js";
import { describePluginLoadError } from "./plugin-loader.js";
import { recoverReply } from "./recover-reply.js";
import type { FinishedRun } from "./dispatch/run-reply.js";
import type { ThreadBindingStore, ThreadRef } from "./thread-bindings.js";
import type { ChannelAccountStatus, ChatButton, ChannelHttpRoute, ChannelPlugin, InboundMessage, InboundReaction, NativeCommand, OutboundFile, OutboundTarget } from "./types.js";
import { ChannelSendRefused } from "./send-errors.js";
import type { ChannelActionRequest, ChannelActionResult, ChannelMessageAction, ChannelMessageRequest, ChannelMessageResult } from "../agents/types.js";
import { runMessageAction } from "./outbound/message-action.js";
import { randomUUID } from "node:crypto";
import { AcpBoundChats, type AcpBoundChatsDeps } from "./acp-bound-chats.js";
import type { DeliveryTarget } from "./outbound/delivery-ledger.js";
import { startTypingLoop } from "./outbound/typing-loop.js";
import { typingIntervalMs } from "./outbound/typing-mode.js";
import { describeFailedSend } from "./outbound/failed-send.js";
import { nativeCommandMenu, nativeSkillMenu, type MenuSwitches } from "./commands/native-command-menu.js";
import { errorPolicyFor } from "./outbound/error-policy.js";
import { defaultAgentId } from "../agents/agent-config.js";
import { resolveAgentRoute, type Binding } from "./routing/resolve-agent-route.js";
import { peerSessionKey } from "./routing/peer-session-key.js";
import { InboundMediaStore } from "./inbound/media-store.js";
import { AutoTtsPreference, speechMediaDir } from "../agents/speech/index.js";
import { AutoSpeech } from "./outbound/auto-speech.js";
import { ACCOUNT_STOP_WAIT_MS } from "./account-stop-wait.js";
import { duplicateBotProblems, duplicateEventStreamProblems } from "./config/duplicate-bots.js";
import { responsePrefixFor } from "./outbound/response-prefix.js";
import { AccountStartRefused, MANUAL_START_WAIT_MS, MANUAL_STOP_NOTE, type AccountStartOutcome } from "./manual-lifecycle.js";
import { settledWithin } from "../infra/settled-within.js";

export interface ChannelManagerDeps {
  stateDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  config(): OpenClawConfig;
  /** The plugin of a configured channel, imported when first needed (the gateway's table of the plugins it ships). */
  loadPlugin(channel: ChannelId): Promise<ChannelPlugin>;
  conversations: ConversationPort;
  store: SessionStore;
  ledger: IdempotencyLedger;
  subagentsCommand?: InboundDispatchDeps["subagentsCommand"];
  tasksCommand?: InboundDispatchDeps["tasksCommand"];
  acpCommand?: InboundDispatchDeps["acpCommand"];
  approveCommand?: InboundDispatchDeps["approveCommand"];
  answerCommand?: InboundDispatchDeps["answerCommand"];
  goals?: InboundDispatchDeps["goals"];
  questionReplies?: InboundDispatchDeps["questionReplies"];
  toolsCommand?: InboundDispatchDeps["toolsCommand"];
  skillsCommand?: InboundDispatchDeps["skillsCommand"];
  adminCommands?: InboundDispatchDeps["adminCommands"];
  /** Threads bound to sub-agents (`thread: true` spawns, `/focus`); without it chats cannot be bound. */
  threadBindings?: ThreadBindingStore;
  focusTarget?: InboundDispatchDeps["focusTarget"];
  acpThreadFollowUp?: InboundDispatchDeps["acpThreadFollowUp"];
  /** The ACP control plane, for chats bound to an ACP agent (`bindings[]` of `type: "acp"`). */
  acp?: Pick<AcpBoundChatsDeps, "manager" | "settings" | "defaultCwd" | "turnTimeoutSeconds">;
  /** Internal hooks hear `message:received` and `message:sent` (docs/automation.md#internal-hooks). */
  hooks?: InternalHookSink;
  /** Where reaction notices wait for their session's next message (`reactionNotifications`). */
  systemEvents?: InboundDispatchDeps["systemEvents"];
  /** Records a 👍/👎 on a run's reply as feedback on that run (`diagnostics.traces.review.reactionFeedback`). */
  reactionFeedback?: InboundDispatchDeps["reactionFeedback"];
}

export interface SendParams {
  channel?: string;
  accountId?: string;
  to: string;
  message: string;
  threadId?: string;
  replyToId?: string;
  idempotencyKey: string;
  /**
   * A durable caller (a cron job's reply): wait for a restarting account as long as a chat reply
   * does. Without it the caller is interactive: a restarting account is waited for a few seconds,
   * then the send fails saying the account is restarting and to try again.
   */
  waitForAccount?: boolean;
}

/**
 * Owns the channel accounts: loads the configured plugins, starts each account, feeds its
 * inbound messages to the dispatcher, delivers replies through the ledger, reports status,
 * and restarts only the channel whose config changed on reload.
 */
export class ChannelManager {
  readonly pairing: PairingStore;
  readonly dedupe: InboundDedupeCache;
  private readonly parked: ParkedInbound;
  readonly deliveryLedger: DeliveryLedger;
  readonly delivery: ReplyDelivery;
  readonly dispatcher: InboundDispatcher;
  private readonly acpBound?: AcpBoundChats;
  private readonly accounts = new Map<string, ManagedAccount>();
  private readonly routes = new Map<string, ChannelHttpRoute>();
  private stopped = false;
  /** Which run of an account handed each recent message over (a restarted account may be given it again). */
  private readonly handedOver = new HandedOver<CreatedAccount>();
  /** The latest reload of the accounts; settles once its stops and starts are done. */
  private reloading: Promise<void> = Promise.resolve();
  /** Accounts `channels.stop` stopped: neither a reload nor anything else starts them until `channels.start`. */
  private readonly manuallyStopped = new Set<string>();
  /** The `channels.start` / `channels.stop` of an account that has not finished yet. */
  private readonly manualOps = new Map<string, { kind: "start" | "stop"; done: Promise<unknown> }>();

  constructor(private readonly deps: ChannelManagerDeps) {
    const dir = path.join(deps.stateDir, "channels");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.pairing = new PairingStore(deps.stateDir);
    this.dedupe = InboundDedupeCache.open(path.join(dir, "inbound-dedupe.jsonl"));
    this.parked = ParkedInbound.open(path.join(dir, "debounce-parked.jsonl"));
    this.deliveryLedger = DeliveryLedger.open(path.join(dir, "delivery-ledger.jsonl"), { replyRuns: ReplyRunIndex.open(path.join(dir, "reply-runs.jsonl")) });
    const autoTtsPreference = AutoTtsPreference.forStateDir(deps.stateDir);
    this.delivery = new ReplyDelivery({
      ledger: this.deliveryLedger,
      logger: deps.logger,
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      account: (channel, accountId) => this.availability(channel, accountId),
      replyPrefix: (target, sessionKey, run) => this.replyPrefix(target, sessionKey, run),
      errorPolicy: (target) => errorPolicyFor(target.channel, this.accountSpec(target.channel, target.accountId)?.config, target),
      autoSpeech: new AutoSpeech({
        config: deps.config,
        session: (sessionKey) => deps.store.peek(sessionKey),
        preference: autoTtsPreference,
        speechDir: speechMediaDir(deps.stateDir),
        logger: deps.logger,
      }),
    });
    if (deps.acp) {
      this.acpBound = new AcpBoundChats({
        ...deps.acp,
        stateDir: deps.stateDir,
        logger: deps.logger,
        deliver: (id, target, text) => this.delivery.queueText(id, target, text),
        typing: (target) => {
          const running = this.accounts.get(key(target.channel, target.accountId));
          return running?.started
            ? startTypingLoop(running.account, { chatId: target.chatId, threadId: target.threadId }, typingIntervalMs(deps.config(), running.config))
            : () => {};
        },
      });
    }
    this.dispatcher = new InboundDispatcher({
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      config: deps.config,
      conversations: deps.conversations,
      store: deps.store,
      dedupe: this.dedupe,
      pairing: this.pairing,
      delivery: this.delivery,
      logger: deps.logger,
      subagentsCommand: deps.subagentsCommand,
      tasksCommand: deps.tasksCommand,
      acpCommand: deps.acpCommand,
      approveCommand: deps.approveCommand,
      answerCommand: deps.answerCommand,
      goals: deps.goals,
      questionReplies: deps.questionReplies,
      toolsCommand: deps.toolsCommand,
      skillsCommand: deps.skillsCommand,
      adminCommands: deps.adminCommands,
      threadBindings: deps.threadBindings,
      focusTarget: deps.focusTarget,
      ...(this.acpBound ? { acpBound: this.acpBound } : {}),
      ...(deps.acpThreadFollowUp ? { acpThreadFollowUp: deps.acpThreadFollowUp } : {}),
      media: new InboundMediaStore(path.join(deps.stateDir, "media", "inbound")),
      speechDir: speechMediaDir(deps.stateDir),
      autoTtsPreference,
      parked: this.parked,
      ...(deps.systemEvents ? { systemEvents: deps.systemEvents } : {}),
      ...(deps.reactionFeedback ? { reactionFeedback: deps.reactionFeedback } : {}),
    });
  }

  async start(): Promise<void> {
    const all = await this.planAccounts(this.deps.config());
    await Promise.all(all.map((account) => this.startAccount(account)));
    await this.recoverDeliveries();
    await this.acpBound?.recover();
  }

  /** `tracker` lists each account's stop (`channel <channel>:<account> stop`) until it ends, even past the stop bound. */
  async stop(tracker?: StopTracker): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.accounts.values()].map((a) => this.stopAccount(a, tracker)));
    await this.delivery.close();
    this.dedupe.close();
    this.parked.close();
    this.deliveryLedger.close();
    this.acpBound?.close();
  }

  /** The chat a `type: "acp"` binding's session talks in (its latest message's), if it is one. */
  acpChatOf(acpSessionKey: string): DeliveryTarget | undefined {
    return this.acpBound?.chatOf(acpSessionKey);
  }

  /** Hot reload: restart only the accounts whose config changed; start new ones, stop removed ones. */
  applyConfig(config: OpenClawConfig): Promise<void> {
    const applied = this.reloadAccounts(config);
    this.reloading = applied.catch(() => undefined);
    return applied;
  }

  private async reloadAccounts(config: OpenClawConfig): Promise<void> {
    const wanted = new Map((await this.planAccounts(config)).map((a) => [key(a.channel, a.accountId), a]));
    const changed: [string, ManagedAccount, ChannelAccountConfig | undefined][] = [];
    for (const [id, current] of this.accounts) {
      const next = wanted.get(id);
      if (!next || fingerprint(next) !== current.fingerprint || next.enabled !== current.enabled) changed.push([id, current, next]);
      wanted.delete(id);
    }
    // Every changed account stops before any starts, since an account renamed in the same edit may
    // take over the bot token the old one held. The stops run side by side, each within the stop
    // bound, so an account that hangs while closing delays the others by that bound at most.
    await Promise.all(changed.map(([, current]) => this.stopChangedAccount(current)));
    const starts: ChannelAccountConfig[] = [...wanted.values()];
    for (const [id, current, next] of changed) {
      // A restarted account keeps its record (and limits) until the new one replaces it: replies wait for it meanwhile.
      if (current.state === "created") delete current.startError;
      if (next) starts.push(next);
      else {
        this.accounts.delete(id);
        this.delivery.accountChanged(current.channel, current.accountId);
      }
    }
    await Promise.all(starts.map((a) => (this.manuallyStopped.has(key(a.channel, a.accountId)) ? this.holdStopped(a) : this.startAccount(a))));
  }

  /** A manually stopped account a reload changed or added: its record takes the new config, and it stays stopped. */
  private async holdStopped(spec: ChannelAccountConfig): Promise<void> {
    const status: ChannelAccountStatus = { accountId: spec.accountId, running: false, connected: false, reconnectAttempts: 0, lastConnectedAt: null, lastError: MANUAL_STOP_NOTE };
    this.accounts.set(key(spec.channel, spec.accountId), this.idle(spec, status, spec.problem ? [spec.problem] : []));
    this.delivery.accountChanged(spec.channel, spec.accountId);
    this.deps.logger.info({ channel: spec.channel, accountId: spec.accountId }, "channel config changed; the account stays stopped by channels.stop until channels.start");
  }

  /**
   * The accounts the config describes, as every start and reload runs them: an account whose
   * resolved bot token (its plugin's botToken) an earlier account already has gets the problem
   * duplicateBotProblems words, and then one whose event connection's credential (its plugin's
   * eventStreamToken, Slack's Socket Mode appToken) an earlier account already opens gets the one
   * duplicateEventStreamProblems words, so neither is started. An account its plugin's config
   * check refuses holds neither. A plugin that fails to load is left to startAccount, which reports it.
   */
  private async planAccounts(config: OpenClawConfig): Promise<ChannelAccountConfig[]> {
    const specs = CHANNEL_IDS.flatMap((channel) => resolveChannelAccounts(config, channel, this.deps.env));
    const plugins = new Map<string, ChannelPlugin>();
    for (const channel of new Set(specs.map((s) => s.channel))) {
      const plugin = await this.deps.loadPlugin(channel).catch(() => undefined);
      if (plugin) plugins.set(channel, plugin);
    }
    const { env } = this.deps;
    const startable = (spec: ChannelAccountConfig) => {
      const plugin = plugins.get(spec.channel);
      return plugin && plugin.checkAccountConfig(spec.config, env, spec.accountId).length === 0 ? plugin : undefined;
    };
    const withProblems = (list: ChannelAccountConfig[], problems: Map<string, string>) =>
      list.map((spec) => {
        const problem = problems.get(key(spec.channel, spec.accountId));
        return problem ? { ...spec, problem } : spec;
      });
    const planned = withProblems(
      specs,
      duplicateBotProblems(config, specs, (spec) => startable(spec)?.botToken(spec.config, env, spec.accountId)),
    );
    return withProblems(
      planned,
      duplicateEventStreamProblems(config, planned, (spec) => startable(spec)?.eventStreamToken?.(spec.config, env, spec.accountId)),
    );
  }

  private async stopChangedAccount(current: ManagedAccount): Promise<void> {
    if (this.manuallyStopped.has(key(current.channel, current.accountId))) return this.stopAccount(current);
    this.deps.logger.info({ channel: current.channel, accountId: current.accountId }, "channel config changed; restarting the account");
    await this.stopAccount(current);
  }

  /** `responsePrefix` of the account (or its channel, or `messages`) a reply goes through, filled for the run's answer. */
  /** An account's spec from the current config, its channel's keys merged under its own; undefined when it is not configured. */
  private accountSpec(channel: string, accountId: string) {
    return isChannelId(channel) ? resolveChannelAccounts(this.deps.config(), channel, this.deps.env).find((a) => a.accountId === accountId) : undefined;
  }

  private replyPrefix(target: DeliveryTarget, sessionKey: string, run: FinishedRun): string | undefined {
    const config = this.deps.config();
    const spec = this.accountSpec(target.channel, target.accountId);
    const entry = this.deps.store.peek(sessionKey);
    return responsePrefixFor(config, entry?.agentId ?? parseSessionKey(sessionKey).agentId, spec?.config.responsePrefix, {
      model: run.result?.model,
      ...(entry?.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
    });
  }

  /** Whether replies through an account can go out now, wait for it, or never will without a config change. */
  private availability(channel: string, accountId: string): AccountAvailability {
    const named = `channel ${channel} account ${accountId}`;
    const spec = isChannelId(channel) ? resolveChannelAccounts(this.deps.config(), channel, this.deps.env).find((a) => a.accountId === accountId) : undefined;
    if (!spec) return { state: "gone", reason: `${named} is no longer configured (add it back under channels.${channel} to reach this chat)` };
    if (!spec.enabled) return { state: "gone", reason: `${named} is disabled (set enabled: true under channels.${channel} to send through it)` };
    const record = this.accounts.get(key(channel, accountId));
    if (record?.state === "created" && record.started) return { state: "running", account: record.account, limits: record.limits };
    const refused = this.refusal(channel, accountId);
    if (refused) return { state: "gone", reason: refused };
    if (record?.state === "created" && record.startError !== undefined) {
      return { state: "gone", reason: `${named} failed to start: ${record.startError} (fix channels.${channel}; the account restarts when its config changes)` };
    }
    return { state: "down", limits: record?.limits ?? { textChunkLimit: 4000 } };
  }

  /**
   * Why an account does not run and will not until the config changes, when its start was refused
   * (a problem of its plan, such as another account's bot token, or of its plugin's config check),
   * or undefined: it runs, is starting, or was never planned.
   */
  refusal(channel: string, accountId: string): string | undefined {
    const record = this.accounts.get(key(channel, accountId));
    if (record?.state !== "idle" || record.problems.length === 0) return undefined;
    return `channel ${channel} account ${accountId} cannot start: ${record.problems.join("; ")}`;
  }

  /** A route a plugin registered on the gateway port (Slack Events, Telegram webhook). */
  httpRoute(method: string, urlPath: string): ChannelHttpRoute | undefined {
    return this.routes.get(`${method.toUpperCase()} ${urlPath}`);
  }

  /**
   * Each account's state for status output. `name` is the label from `channels.<c>.accounts.<id>.name`,
   * else `channels.<c>.name` (an account inherits the channel block's keys).
   */
  accountStatuses(): (ChannelAccountStatus & { channel: string; name?: string; enabled: boolean; configured: boolean; dmPolicy: string; problems: string[] })[] {
    // By account id, as the config lists them, whatever order starts and reloads added them in.
    const accounts = [...this.accounts.values()].sort((a, b) => a.accountId.localeCompare(b.accountId));
    return accounts.map((a) => ({
      ...a.status,
      channel: a.channel,
      ...(typeof a.config.name === "string" && a.config.name !== "" ? { name: a.config.name } : {}),
      enabled: a.enabled,
      configured: a.configured,
      dmPolicy: (a.config.dmPolicy as string | undefined) ?? "pairing",
      problems: a.problems,
    }));
  }

  /** The account a channel uses when none is named: `channels.<c>.defaultAccount`, else `default`, else the first by id. */
  defaultAccountId(channel: ChannelId): string | undefined {
    return defaultAccountId(this.deps.config(), channel);
  }

  /** The account ids the config gives a channel, by id. */
  configuredAccountIds(channel: ChannelId): string[] {
    return resolveChannelAccounts(this.deps.config(), channel, this.deps.env)
      .map((a) => a.accountId)
      .sort();
  }

  /**
   * `channels.stop`: stops the account (its poller or socket, as a reload that removes it does)
   * and marks it manually stopped, so nothing starts it again (a reload, changed or not, keeps it
   * down) until `startAccountManually` or a gateway restart. `stopped`: it does not run afterwards.
   */
  async stopAccountManually(channel: ChannelId, accountId: string): Promise<{ stopped: boolean }> {
    const id = key(channel, accountId);
    this.manuallyStopped.add(id);
    const pending = this.manualOps.get(id);
    if (pending?.kind === "stop") await pending.done;
    else {
      // A start still creating the account ends first; then it is stopped, connecting or running.
      await pending?.done.catch(() => undefined);
      await this.manualOp(id, "stop", () => this.stopNow(id));
    }
    return { stopped: this.accounts.get(id)?.status.running !== true };
  }

  private async stopNow(id: string): Promise<void> {
    // A reload under way may still be starting the account: it is stopped once the reload is done.
    await this.reloading;
    const record = this.accounts.get(id);
    if (!record) return;
    await this.stopAccount(record);
    if (record.state === "created" && this.manuallyStopped.has(id)) record.status.lastError = MANUAL_STOP_NOTE;
    this.delivery.accountChanged(record.channel, record.accountId);
  }

  /**
   * `channels.start`: clears the manual stop and starts the account when the config enables it and
   * it can start, waiting up to MANUAL_START_WAIT_MS for its platform; `started`: the account's
   * `running` when this answers. The outcome says what was decided (see AccountStartOutcome).
   */
  async startAccountManually(channel: ChannelId, accountId: string): Promise<{ started: boolean; outcome: AccountStartOutcome }> {
    if (this.stopped) throw new AccountStartRefused("the gateway is stopping; start the account once it runs again");
    const id = key(channel, accountId);
    const running = () => this.accounts.get(id)?.status.running === true;
    const pending = this.manualOps.get(id);
    if (pending) return { started: running(), outcome: { status: "retry", reason: pending.kind === "stop" ? "stop-in-flight" : "start-in-flight" } };
    const record = this.accounts.get(id);
    if (record?.state === "created" && !record.retired && record.startError === undefined) {
      this.manuallyStopped.delete(id);
      return { started: running(), outcome: { status: "retry", reason: record.started ? "task-owned" : "start-in-flight" } };
    }
    this.manuallyStopped.delete(id);
    const { outcome, connected } = await this.manualOp(id, "start", () => this.startNow(channel, accountId));
    // Waiting for the platform is not part of the start: a stop meanwhile ends the connecting start at once.
    if (connected) await settledWithin(connected, MANUAL_START_WAIT_MS);
    return { started: running(), outcome };
  }

  /** Runs a manual start or stop of the account `id`, known to other calls as in flight until it ends. */
  private async manualOp<T>(id: string, kind: "start" | "stop", run: () => Promise<T>): Promise<T> {
    const done = run();
    this.manualOps.set(id, { kind, done });
    try {
      return await done;
    } finally {
      if (this.manualOps.get(id)?.done === done) this.manualOps.delete(id);
    }
  }

  /** Creates the account under the current config; `connected` settles once its platform accepted or refused it. */
  private async startNow(channel: ChannelId, accountId: string): Promise<{ outcome: AccountStartOutcome; connected?: Promise<void> }> {
    await this.reloading;
    // A plugin that cannot load is the caller's error, not a skipped account.
    await this.deps.loadPlugin(channel).catch((err: unknown) => {
      throw new AccountStartRefused(describePluginLoadError(channel, err));
    });
    const spec = (await this.planAccounts(this.deps.config())).find((a) => a.channel === channel && a.accountId === accountId);
    if (!spec) return { outcome: { status: "skipped", reason: "unconfigured" } };
    // A reload that ran meanwhile may have started it already: one instance per account.
    const current = this.accounts.get(key(channel, accountId));
    if (current?.state === "created" && !current.retired && current.startError === undefined) {
      return { outcome: { status: "retry", reason: current.started ? "task-owned" : "start-in-flight" } };
    }
    const started = await this.startAccount(spec);
    if (!spec.enabled) return { outcome: { status: "skipped", reason: "disabled" } };
    if (!started) return { outcome: { status: "skipped", reason: "unconfigured" } };
    return { outcome: { status: "handed-off" }, connected: started.connected };
  }

  /** Direct delivery without an agent run (`send`, `openclaw message send`, the `message` tool). */
  async send(params: SendParams): Promise<{ runId: string; channel: string; accountId: string; chatId: string; messageIds: string[] }> {
    const wait = params.waitForAccount ? "durable" : "interactive";
    const chat = await this.resolveChat(params, wait);
    const id = `send:${params.idempotencyKey}`;
    const existing = this.deliveryLedger.get(id);
    // The same key again after a failure is the caller retrying: what did not go out is owed anew.
    if (existing?.state === "failed") this.deliveryLedger.reopen(id);
    const entry =
      existing?.state === "delivered"
        ? existing
        : await this.delivery.deliverText(id, { ...chat, ...(params.replyToId ? { replyToMessageId: params.replyToId } : {}) }, params.message, wait);
    if (entry?.state !== "delivered") throw new ChannelSendRefused(describeFailedSend(entry));
    return { runId: params.idempotencyKey, channel: chat.channel, accountId: chat.accountId, chatId: chat.chatId, messageIds: Object.values(entry.sent) };
  }

  /**
   * Rows of buttons under a message `send` posted with the text `markdown`; false where the
   * account is not running or its platform has no buttons (the message stands as it is).
   */
  async attachButtons(sent: SentChatMessage, rows: readonly (readonly ChatButton[])[], markdown: string): Promise<boolean> {
    const running = this.accounts.get(key(sent.channel, sent.accountId));
    if (!running?.started || !running.account.setButtons) return false;
    await running.account.setButtons(sentTarget(sent), sent.messageId, rows, { markdown });
    return true;
  }

  /** Replace the text of a message `send` posted (its buttons go with the old text); false where it cannot be edited. */
  async editSent(sent: SentChatMessage, markdown: string): Promise<boolean> {
    const running = this.accounts.get(key(sent.channel, sent.accountId));
    if (!running?.started || !running.account.editMessage) return false;
    await running.account.editMessage(sentTarget(sent), sent.messageId, { markdown });
    return true;
  }

  /** Delete a message `send` posted; false where the account is not running or cannot delete. */
  async deleteSent(sent: SentChatMessage): Promise<boolean> {
    const running = this.accounts.get(key(sent.channel, sent.accountId));
    if (!running?.started || !running.account.deleteMessage) return false;
    await running.account.deleteMessage(sentTarget(sent), sent.messageId);
    return true;
  }

  /**
   * The chat `to` names on a channel's account (the only channel, and its default account, when not
   * named), once that account runs; refused (ChannelSendRefused) when it is gone, a bad target throws.
   */
  async resolveChat(params: { channel?: string; accountId?: string; to: string; threadId?: string }, wait: "durable" | "interactive" = "interactive"): Promise<DeliveryTarget> {
    const channel = this.pickChannel(params.channel);
    const accountId = params.accountId?.toLowerCase() ?? defaultAccountId(this.deps.config(), channel) ?? "default";
    if (wait === "interactive") this.refuseManuallyStopped(channel, params.accountId, accountId);
    const available = await this.delivery.whenAccountRuns(channel, accountId, wait);
    if (available.state === "gone") throw this.refusedSend(channel, params.accountId, available.reason);
    const target = await available.account.resolveTarget(params.to);
    const threadId = params.threadId ?? target.threadId;
    return { channel, accountId, chatId: target.chatId, ...(threadId ? { threadId } : {}) };
  }

  /**
   * The session the chat `to` names runs in (`agent` with `to` and no `sessionKey`): its peer keyed
   * as the inbound dispatcher keys that chat's messages, for `agentId` or else the agent the
   * bindings route the peer to. Refused (ChannelSendRefused) when the account is gone or its
   * channel cannot tell which peer a target is; a bad target throws.
   */
  async peerSession(params: { channel?: string; accountId?: string; to: string; threadId?: string; agentId?: string }): Promise<string> {
    const channel = this.pickChannel(params.channel);
    const config = this.deps.config();
    const accountId = params.accountId?.toLowerCase() ?? defaultAccountId(config, channel) ?? "default";
    this.refuseManuallyStopped(channel, params.accountId, accountId);
    const available = await this.delivery.whenAccountRuns(channel, accountId, "interactive");
    if (available.state === "gone") throw this.refusedSend(channel, params.accountId, available.reason);
    if (!available.account.sessionPeer) throw new ChannelSendRefused(`${channel} cannot tell which chat session a target belongs to: name the session with sessionKey`);
    const peer = await available.account.sessionPeer(params.to);
    const threadId = params.threadId ?? peer.threadId;
    const agentId = (
      params.agentId ??
      resolveAgentRoute(
        config.bindings as Binding[] | undefined,
        { channel, accountId, chatType: peer.chatType, peerId: peer.peerId, ...(peer.guildId ? { guildId: peer.guildId } : {}), ...(peer.teamId ? { teamId: peer.teamId } : {}) },
        defaultAgentId(config),
      ).agentId
    ).toLowerCase();
    return peerSessionKey(config, { agentId, channel, accountId, chatType: peer.chatType, peerId: peer.peerId, ...(threadId ? { threadId } : {}) });
  }

  /**
   * An interactive caller is not kept waiting for an account `channels.stop` stopped: nothing starts
   * it but `channels.start`. Durable replies (a chat's, a cron job's) wait for it as for a restart.
   */
  private refuseManuallyStopped(channel: ChannelId, named: string | undefined, accountId: string): void {
    if (this.manuallyStopped.has(key(channel, accountId))) throw this.refusedSend(channel, named, `channel ${channel} account ${accountId} was ${MANUAL_STOP_NOTE}`);
  }

  /** A send refused because its account does not run; when the caller named no account, it also says which rule chose it. */
  private refusedSend(channel: ChannelId, named: string | undefined, reason: string): ChannelSendRefused {
    return new ChannelSendRefused(named ? reason : `${reason}; ${unnamedAccountFix(this.deps.config(), channel)}`);
  }

  /**
   * One file, posted at once (not through the delivery ledger: an upload is not replayed after a
   * crash). An account that is not running is not waited for; one that will not run says why.
   */
  private async sendFile(params: ImmediateTarget & { file: OutboundFile }): Promise<ChannelMessageResult> {
    const { channel, accountId, account, target } = await this.runningTarget(params);
    const sent = await account.sendFile(target, params.file);
    return { channel, accountId, chatId: target.chatId, messageIds: [sent.messageId] };
  }

  /**
   * The running account and the resolved chat for something done at once, not through the delivery
   * ledger (a file, a reaction, an edit): an account that is not running is not waited for, and one
   * that will not run says why.
   */
  private async runningTarget(params: ImmediateTarget): Promise<{ channel: string; accountId: string; account: CreatedAccount["account"]; target: OutboundTarget }> {
    const channel = this.pickChannel(params.channel);
    const accountId = params.accountId?.toLowerCase() ?? defaultAccountId(this.deps.config(), channel) ?? "default";
    const running = this.accounts.get(key(channel, accountId));
    if (!running?.started) {
      const available = this.availability(channel, accountId);
      if (available.state === "gone") throw this.refusedSend(channel, params.accountId, available.reason);
      throw new ChannelSendRefused(`channel ${channel} account ${accountId} is not running`);
    }
    const resolved = await running.account.resolveTarget(params.to);
    const threadId = params.threadId ?? resolved.threadId;
    return { channel, accountId, account: running.account, target: { chatId: resolved.chatId, ...(threadId ? { threadId } : {}) } };
  }

  /**
   * The agent's `message` tool. Without `to` it writes to the chat the session's conversation
   * lives in (its last inbound route). What it sent is remembered: a final reply that repeats it
   * to the same chat is not delivered a second time (OpenClaw's didSendViaMessagingTool).
   */
  async sendFromTool(request: ChannelMessageRequest): Promise<ChannelMessageResult> {
    const entry = request.sessionKey ? this.deps.store.get(request.sessionKey) : undefined;
    const toCurrent = !request.to;
    if (toCurrent && !entry?.lastChannel) throw new ChannelSendRefused("this conversation is not on a chat channel: name a target (`to`) and a `channel`");
    if (request.file) {
      const threadId = request.threadId ?? (toCurrent ? entry?.lastThreadId : undefined);
      const sent = await this.sendFile({
        channel: request.channel ?? (toCurrent ? entry?.lastChannel : undefined),
        accountId: request.accountId ?? (toCurrent ? entry?.lastAccountId : undefined),
        to: request.to ?? entry!.lastTo!,
        threadId,
        file: { ...request.file, caption: request.message },
      });
      // The turn's reply now has media: Auto-TTS leaves it text.
      if (request.sessionKey) {
        this.delivery.noteToolMedia(request.sessionKey, { channel: sent.channel, accountId: sent.accountId, chatId: sent.chatId, ...(threadId ? { threadId } : {}) });
      }
      return sent;
    }
    const result = await this.send({
      channel: request.channel ?? (toCurrent ? entry?.lastChannel : undefined),
      accountId: request.accountId ?? (toCurrent ? entry?.lastAccountId : undefined),
      to: request.to ?? entry!.lastTo!,
      threadId: request.threadId ?? (toCurrent ? entry?.lastThreadId : undefined),
      message: request.message,
      idempotencyKey: `tool:${randomUUID()}`,
    });
    const threadId = request.threadId ?? (toCurrent ? entry?.lastThreadId : undefined);
    if (request.sessionKey) {
      this.delivery.noteToolSend(
        request.sessionKey,
        { channel: result.channel, accountId: result.accountId, chatId: result.chatId, ...(threadId ? { threadId } : {}) },
        request.message,
      );
    }
    const sent = { channel: result.channel, accountId: result.accountId, chatId: result.chatId, messageIds: result.messageIds };
    if (!request.buttons) return sent;
    const buttonsNotAttached = await this.attachToolButtons({ ...sent, ...(threadId ? { threadId } : {}) }, request.buttons, request.message);
    return buttonsNotAttached ? { ...sent, buttonsNotAttached } : sent;
  }

  /**
   * The `message` tool's react, edit and delete. Without `to` they act in the chat the session's
   * conversation lives in, where a react without `messageId` reacts to the session's last inbound
   * message (the one the turn answers).
   */
  async actFromTool(request: ChannelActionRequest): Promise<ChannelActionResult> {
    const entry = request.sessionKey ? this.deps.store.get(request.sessionKey) : undefined;
    const toCurrent = !request.to;
    if (toCurrent && !entry?.lastChannel) throw new ChannelSendRefused("this conversation is not on a chat channel: name a target (`to`) and a `channel`");
    const messageId = request.messageId ?? (toCurrent && request.action === "react" ? entry?.lastMessageId : undefined);
    if (!messageId) {
      throw new ChannelSendRefused(
        request.action === "react" ? "there is no message to react to here: pass messageId" : `${request.action} needs messageId (the id a send returned)`,
      );
    }
    const { action, ...rest } = request;
    const what: ChannelMessageAction =
      action === "react" ? { action, emoji: request.emoji, ...(request.remove ? { remove: true } : {}) } : action === "edit" ? { action, message: request.message } : { action };
    return this.act({
      channel: rest.channel ?? (toCurrent ? entry?.lastChannel : undefined),
      accountId: rest.accountId ?? (toCurrent ? entry?.lastAccountId : undefined),
      to: rest.to ?? entry!.lastTo!,
      threadId: rest.threadId ?? (toCurrent ? entry?.lastThreadId : undefined),
      messageId,
      action: what,
    });
  }

  /**
   * React to, edit or delete one message in the chat `to` names, through its account, at once (an
   * account that is not running is not waited for). What the account cannot do is refused by name.
   */
  async act(params: ImmediateTarget & { messageId: string; action: ChannelMessageAction }): Promise<ChannelActionResult> {
    const { channel, accountId, account, target } = await this.runningTarget(params);
    const outcome = await runMessageAction(channel, account, target, params.messageId, params.action);
    return { action: params.action.action, channel, accountId, chatId: target.chatId, messageId: params.messageId, ...outcome };
  }

  /**
   * The `message` tool's buttons under what it sent, when that went as one message (a press comes
   * back as its presser's message `callback_data: <value>`); why they are not there, or undefined
   * once they are.
   */
  private async attachToolButtons(
    sent: { channel: string; accountId: string; chatId: string; threadId?: string; messageIds: string[] },
    buttons: NonNullable<ChannelMessageRequest["buttons"]>,
    message: string,
  ): Promise<string | undefined> {
    const [messageId, ...more] = sent.messageIds;
    if (!messageId) return "nothing was posted to put them under";
    if (more.length > 0) return `the text went as ${sent.messageIds.length} messages; buttons go under a message that fits in one`;
    const refused = agentButtonsRefusal(this.deps.config(), sent);
    if (refused) return refused;
    const rows = buttons.map((row) => row.map(({ label, value, style }) => ({ label, data: value, ...(style ? { style } : {}) })));
    try {
      const attached = await this.attachButtons({ ...sent, messageId }, rows, message);
      return attached ? undefined : `${sent.channel} has no buttons here`;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /**
   * A run the runtime started in a session (a sub-agent announcement answered by its parent):
   * when the session's conversation lives in a chat, the answer goes there, through the ledger
   * like any reply.
   */
  async deliverSessionRun(sessionKey: string, run: FinishedRun & { runId: string; done: Promise<FinishedRun> }): Promise<void> {
    const chat = this.sessionChat(sessionKey);
    if (!chat) return;
    await this.oweRunReply(run.runId, chat, sessionKey, run);
  }

  /** The chat a session's conversation lives in (its last inbound route), or undefined when no channel message reached it. */
  sessionChat(sessionKey: string): DeliveryTarget | undefined {
    const entry = this.deps.store.get(sessionKey);
    if (!entry?.lastChannel || !entry.lastTo || !isChannelId(entry.lastChannel)) return undefined;
    return {
      channel: entry.lastChannel,
      accountId: entry.lastAccountId ?? "default",
      chatId: entry.lastTo,
      ...(entry.lastThreadId ? { threadId: entry.lastThreadId } : {}),
    };
  }

  /**
   * `run`'s reply is owed to `chat` under the delivery id `id`: the entry (with its target) is on
   * disk when this resolves, and the reply is delivered when the run ends. After a restart the
   * entry is recovered as a channel message's is: the recorded answer, or the interrupted notice.
   */
  async oweRunReply(id: string, chat: DeliveryTarget, sessionKey: string, run: { runId: string; done: Promise<FinishedRun> }): Promise<void> {
    await this.delivery.expect(id, chat, { sessionKey, runId: run.runId });
    void run.done
      .then((ended) => this.delivery.deliverRun(id, sessionKey, ended))
      .catch((err: unknown) => this.deps.logger.warn({ deliveryId: id, sessionKey, err: (err as Error).message }, "run reply not delivered to the chat"));
  }

  /** Whether a chat on this account can get a thread now: the account runs and its platform has threads. */
  threadSupport(channel: string, accountId: string): "ready" | "not-running" | "unsupported" {
    const running = this.accounts.get(key(channel, accountId));
    if (!running?.started) return "not-running";
    return running.account.createThread ? "ready" : "unsupported";
  }

  /** Opens a thread titled `title` in a chat (a thread-bound sub-agent's); returns where to post in it. */
  async createThread(route: ThreadRef, title: string): Promise<OutboundTarget> {
    const running = this.accounts.get(key(route.channel, route.accountId));
    if (!running?.started) throw new ChannelSendRefused(`channel ${route.channel} account ${route.accountId} is not running`);
    if (!running.account.createThread) throw new ChannelSendRefused(`${route.channel} has no threads`);
    return running.account.createThread({ chatId: route.chatId, ...(route.threadId ? { threadId: route.threadId } : {}) }, title);
  }

  listPairing(channel?: string, accountId?: string): PairingRequest[] {
    return this.pairing.listPending(channel, accountId);
  }

  approvePairing(channel: string, code: string, accountId?: string): PairingRequest | null {
    return this.pairing.approve(channel, code, accountId);
  }

  rejectPairing(channel: string, code: string, accountId?: string): PairingRequest | null {
    return this.pairing.reject(channel, code, accountId);
  }

  private pickChannel(requested?: string): ChannelId {
    if (requested) {
      const id = requested.toLowerCase();
      if (!isChannelId(id)) throw new ChannelSendRefused(`unknown channel "${requested}" (expected one of: ${CHANNEL_IDS.join(", ")})`);
      return id;
    }
    const running = [...new Set([...this.accounts.values()].filter((a) => a.started).map((a) => a.channel as ChannelId))];
    if (running.length === 1) return running[0]!;
    throw new ChannelSendRefused(running.length === 0 ? "no channel is running" : `several channels are running (${running.join(", ")}): pass channel`);
  }

  /** Creates and records the account; when it was created, `connected` settles once its start ended (started or failed). */
  private async startAccount(spec: ChannelAccountConfig): Promise<{ connected: Promise<void> } | undefined> {
    const id = key(spec.channel, spec.accountId);
    const status: ChannelAccountStatus = { accountId: spec.accountId, running: false, connected: false, reconnectAttempts: 0, lastConnectedAt: null, lastError: null };
    let plugin: ChannelPlugin;
    try {
      plugin = await this.deps.loadPlugin(spec.channel);
    } catch (err) {
      status.lastError = describePluginLoadError(spec.channel, err);
      this.accounts.set(id, this.idle(spec, status, [status.lastError]));
      this.deps.logger.error({ channel: spec.channel, err: status.lastError }, "channel plugin failed to load");
      this.delivery.accountChanged(spec.channel, spec.accountId);
      return;
    }
    const problems = !spec.enabled ? [] : spec.problem ? [spec.problem] : plugin.checkAccountConfig(spec.config, this.deps.env, spec.accountId);
    const limits = {
      textChunkLimit: (spec.config.textChunkLimit as number | undefined) ?? plugin.defaultLimits.textChunkLimit,
      maxLinesPerMessage: (spec.config.maxLinesPerMessage as number | undefined) ?? plugin.defaultLimits.maxLinesPerMessage,
      ...((spec.config.streaming as { chunkMode?: string } | undefined)?.chunkMode === "newline" ? { chunkMode: "newline" as const } : {}),
    };
    if (!spec.enabled || problems.length > 0) {
      if (problems.length) status.lastError = problems.join("; ");
      this.accounts.set(id, { ...this.idle(spec, status, problems), limits });
      if (problems.length) this.deps.logger.warn({ channel: spec.channel, accountId: spec.accountId, problems }, "channel account not started");
      this.delivery.accountChanged(spec.channel, spec.accountId);
      return;
    }
    const routeKeys: string[] = [];
    const stateDir = path.join(this.deps.stateDir, "channels", spec.channel, spec.accountId);
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const log = this.deps.logger.child({ channel: spec.channel, accountId: spec.accountId });
    // Inbound messages arrive only after start(), when `managed` exists.
    const account = plugin.createAccount(
      {
        accountId: spec.accountId,
        config: spec.config,
        stateDir,
        logger: log,
        onInbound: (envelope) => this.inbound(managed, envelope),
        onReaction: (reaction) => this.reaction(managed, reaction),
        registerHttpRoute: (route) => {
          const routeKey = `${route.method} ${route.path}`;
          this.routes.set(routeKey, route);
          routeKeys.push(routeKey);
        },
        reportStatus: (patch) => {
          Object.assign(status, patch);
          if (patch.connected) status.lastConnectedAt = Date.now();
        },
        nativeCommands: () => this.nativeCommands(spec.channel, spec.accountId),
      },
      this.deps.env,
    );
    const managed: CreatedAccount = {
      state: "created",
      channel: spec.channel,
      accountId: spec.accountId,
      config: spec.config,
      limits,
      ...(plugin.blockStreaming ? { blockStreaming: plugin.blockStreaming } : {}),
      status,
      account,
      configured: true,
      enabled: true,
      problems: [],
      fingerprint: fingerprint(spec),
      started: false,
      routeKeys,
    };
    this.accounts.set(id, managed);
    // The platform connection is made in the background: a platform that never answers (getMe
    // held) must not hold the gateway's start, a reload, or the stop behind it.
    const connected = this.connectAccount(managed, log).catch((err: unknown) => log.error({ err: (err as Error).message }, "channel account start failed"));
    return { connected };
  }

  /**
   * One message an account instance took from its platform. An instance a reload stopped may still
   * hand over what it had already taken (Slack and Discord acknowledge an event before it is
   * handed over, and never send it again): once the reload is done it goes through the instance
   * that replaced it, under the new config, or is dropped, with a line saying so, when the reload
   * removed or disabled the account. The gateway's own stop leaves the message to the instance.
   */
  /**
   * An account's command menu: the chat commands, then (`commands.nativeSkills`) the skill commands
   * of the agent its messages go to when no chat-specific binding applies; the account's own
   * `commands` block (its channel's, merged) switches either over the global keys. A skill listing that
   * fails leaves the menu at the chat commands, logged.
   */
  private async nativeCommands(channel: ChannelId, accountId: string): Promise<readonly NativeCommand[]> {
    const config = this.deps.config();
    const own = (this.accountSpec(channel, accountId)?.config.commands ?? {}) as MenuSwitches;
    const commands = nativeCommandMenu(config, own);
    if (commands.length === 0 || !this.deps.skillsCommand || (own.nativeSkills ?? config.commands?.nativeSkills) === false) return commands;
    const { agentId } = resolveAgentRoute(config.bindings, { channel, accountId, chatType: "direct", peerId: "" }, defaultAgentId(config));
    try {
      return [...commands, ...nativeSkillMenu(config, await this.deps.skillsCommand(agentId), commands.length, own)];
    } catch (error) {
      this.deps.logger.warn({ channel, accountId, err: (error as Error).message }, "skill commands left out of the command menu: the skills could not be listed");
      return commands;
    }
  }

  private async inbound(from: CreatedAccount, envelope: InboundMessage): Promise<void> {
    if (!from.retired || this.stopped) return this.handOver(from, envelope);
    await this.reloading;
    const current = this.accounts.get(key(from.channel, from.accountId));
    if (current?.state === "created" && current !== from) return this.inbound(current, envelope);
    const why = this.manuallyStopped.has(key(from.channel, from.accountId))
      ? "was stopped by channels.stop"
      : !current
        ? "was removed from the config"
        : !current.enabled
          ? "was disabled"
          : current.problems.length > 0
            ? `cannot start: ${current.problems.join("; ")}`
            : "is not running";
    this.deps.logger.info(
      { channel: from.channel, accountId: from.accountId, chatId: envelope.chatId, messageId: envelope.messageId },
      `inbound message dropped: channel ${from.channel} account ${from.accountId} ${why} while the message was being handed over`,
    );
  }

  /** A reaction (or its removal) from a running account; one arriving while the account is being replaced is dropped (a notice or a rating, nothing owed). */
  private async reaction(from: CreatedAccount, reaction: InboundReaction): Promise<void> {
    if (from.retired || this.stopped) return;
    await this.dispatcher.handleReaction(from, reaction);
  }

  /** To the dispatcher, unless an earlier run of the account handed the message over already. */
  private async handOver(running: CreatedAccount, envelope: InboundMessage): Promise<void> {
    const place = this.handedOver.claim(running.channel, running.accountId, envelope, running);
    if (place === false) {
      this.deps.logger.info(
        { channel: running.channel, accountId: running.accountId, chatId: envelope.chatId, messageId: envelope.messageId },
        "inbound message dropped: the account's run before its restart already handed it over",
      );
      return;
    }
    try {
      await this.dispatcher.dispatch(running, envelope);
    } catch (err) {
      this.handedOver.release(place, running);
      throw err;
    }
  }

  /** Starts a created account; a start still running when the account is stopped (a reload replaced it) leaves it stopped. */
  private async connectAccount(managed: CreatedAccount, log: Logger): Promise<void> {
    const { channel, accountId, status } = managed;
    try {
      await managed.account.start();
    } catch (err) {
      if (managed.retired) return;
      status.lastError = (err as Error).message;
      managed.startError = status.lastError;
      log.error({ err: status.lastError }, "channel account failed to start");
      this.delivery.accountChanged(channel, accountId);
      return;
    }
    if (managed.retired || this.stopped) return;
    managed.started = true;
    status.running = true;
    log.info("channel account started");
    this.delivery.accountChanged(channel, accountId);
    // Handed to the dispatcher before the account's first update (its poll answer is I/O, this
    // is not), so the messages parked before a restart come first in their windows.
    await this.dispatcher.resumeParked(managed).catch((err: unknown) => log.error({ err: (err as Error).message }, "parked debounce messages not resumed; they stay parked"));
  }

  private idle(spec: ChannelAccountConfig, status: ChannelAccountStatus, problems: string[]): IdleAccount {
    return {
      state: "idle",
      channel: spec.channel,
      accountId: spec.accountId,
      config: spec.config,
      status,
      limits: { textChunkLimit: 4000 },
      configured: problems.length === 0,
      enabled: spec.enabled,
      problems,
      fingerprint: fingerprint(spec),
      started: false,
    };
  }

  private async stopAccount(account: ManagedAccount, tracker?: StopTracker): Promise<void> {
    if (account.state === "created" && !account.started && !account.retired && account.startError === undefined) {
      // Its start is still connecting: stop it, so it neither runs later nor keeps the platform (a polling token).
      account.retired = true;
      for (const routeKey of account.routeKeys.splice(0)) this.routes.delete(routeKey);
      await this.closeAccount(account, "its start was still connecting", tracker);
      return;
    }
    if (!account.started) return;
    if (account.state === "created") account.retired = true;
    account.started = false;
    account.status.running = false;
    account.status.connected = false;
    for (const routeKey of account.routeKeys.splice(0)) this.routes.delete(routeKey);
    await this.closeAccount(account, "it was running", tracker);
  }

  /**
   * The plugin's `stop()`, waited for at most ACCOUNT_STOP_WAIT_MS: a platform that hangs while
   * closing must not hold the gateway's shutdown or a reload. Past the bound the account is left
   * to finish on its own (the process exiting ends it) and a warning names it.
   */
  private async closeAccount(account: CreatedAccount, state: string, tracker?: StopTracker): Promise<void> {
    const names = { channel: account.channel, accountId: account.accountId };
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ACCOUNT_STOP_WAIT_MS);
      timer.unref();
    });
    const stopping = account.account.stop();
    tracker?.track(`channel ${account.channel}:${account.accountId} stop`, stopping);
    const stopped = stopping.then(
      () => "stopped" as const,
      (err: unknown) => {
        this.deps.logger.warn({ ...names, err: (err as Error).message }, "channel account did not stop cleanly");
        return "failed" as const;
      },
    );
    const outcome = await Promise.race([stopped, gaveUp]);
    clearTimeout(timer);
    if (outcome !== "timeout") return;
    this.deps.logger.warn(
      { ...names, waitedMs: ACCOUNT_STOP_WAIT_MS },
      `channel ${account.channel} account ${account.accountId} did not stop within ${ACCOUNT_STOP_WAIT_MS / 1000} s (${state}; its stop still waits on the platform); going on without it`,
    );
  }

  /** Replies owed from before a restart: send what was recorded, and answer what was accepted but never recorded. */
  private async recoverDeliveries(): Promise<void> {
    const resumed = await this.delivery.recover((entry) =>
      recoverReply(entry.runId ? this.deps.ledger.get(entry.runId) : undefined, () => this.transcriptOf(entry.sessionKey), entry.streamed, entry.replyVia),
    );
    if (resumed > 0) this.deps.logger.info({ resumed }, "channel replies owed from before the restart are being delivered");
  }

  private transcriptOf(sessionKey: string | undefined): readonly TranscriptMessage[] {
    if (!sessionKey) return [];
    try {
      return this.deps.conversations.history(sessionKey);
    } catch {
      return [];
    }
  }
}

/** A message the bot posted, as `send` reports it (with the thread it went to). */
export interface SentChatMessage {
  channel: string;
  accountId: string;
  chatId: string;
  threadId?: string;
  messageId: string;
}

function sentTarget(sent: SentChatMessage): OutboundTarget {
  return { chatId: sent.chatId, ...(sent.threadId ? { threadId: sent.threadId } : {}) };
}

/** Where something done at once goes: a channel (default: the only one), an account, a chat and thread. */
interface ImmediateTarget {
  channel?: string;
  accountId?: string;
  to: string;
  threadId?: string;
}

function key(channel: string, accountId: string): string {
  return `${channel}|${accountId}`;
}

/** What restarts an account on reload when it changes: its merged config and why it cannot start. */
function fingerprint(spec: ChannelAccountConfig): string {
  return JSON.stringify([spec.config, spec.problem ?? null]);
}

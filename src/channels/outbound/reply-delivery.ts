import type { InternalHookSink } from "../../hooks/internal/types.js";
import type { Logger } from "../../infra/logger.js";
import type { ChannelAccount, ChannelLimits } from "../types.js";
import { chunkText } from "./chunk-text.js";
import { chunkByParagraph } from "./paragraph-chunks.js";
import { splitPlain } from "./split-plain.js";
import type { DeliveryEntry, DeliveryLedger, DeliveryMeta, DeliveryTarget } from "./delivery-ledger.js";
import type { SentMessageRef } from "./reply-run-index.js";
import { DEFAULT_RETRY_POLICY, sendWithRetry, type RetryPolicy } from "./send-with-retry.js";
import { replyForRun, ROOM_EVENT_QUIET, type FinishedRun } from "../dispatch/run-reply.js";
import { SentErrorNotices, type ErrorPolicy } from "./error-policy.js";
import { AccountWaits } from "./account-waits.js";
import { withResponsePrefix } from "./response-prefix.js";
import type { StreamedReply } from "./block-reply-stream.js";
import type { AutoSpeechPort } from "./auto-speech.js";
import { stability } from "../../infra/stability/stability-recorder.js";

/**
 * Whether a reply's account can send now. `down`: configured and enabled but not running yet
 * (a reload restarts it, its start is still connecting): the reply waits for it. `gone`: it
 * will not run until the config changes (removed, disabled, a config problem, a failed start).
 */
export type AccountAvailability =
  | { state: "running"; account: ChannelAccount; limits: ChannelLimits }
  | { state: "down"; limits: ChannelLimits }
  | { state: "gone"; reason: string };

/** How long a reply waits for its account to run again before it is given up (OpenClaw drops a queued message after 30 minutes too). */
export const ACCOUNT_WAIT_LIMIT_MS = 30 * 60_000;

/** How long an interactive send (the `send` method, the agent's `message` tool) waits for a restarting account: its caller is waiting for the answer. */
export const INTERACTIVE_ACCOUNT_WAIT_MS = 5_000;

/**
 * Who waits for a delivery. `durable`: a reply owed to a chat, kept in the ledger and waited for
 * as long as the account restarts, and retried in later rounds when the platform fails. `interactive`:
 * a caller waits for the answer, so a restarting account fails it after a short wait, and a failed
 * round ends it as failed: what the caller is told is final, nothing retries it in the background.
 */
export type DeliveryWait = "durable" | "interactive";

export interface ReplyDeliveryDeps {
  ledger: DeliveryLedger;
  logger: Logger;
  /** The account a target goes through, with its effective limits, and whether it runs. */
  account(channel: string, accountId: string): AccountAvailability;
  /** How long a reply waits for an account that is down (default `ACCOUNT_WAIT_LIMIT_MS`). */
  accountWaitMs?: number;
  retry?: RetryPolicy;
  /** Wait before a failed delivery is tried again (multiplied by the attempts so far). */
  redeliverAfterMs?: number;
  /** Internal hooks hear `message:sent` once per delivery, when it went out or finally failed. */
  hooks?: InternalHookSink;
  /** The `responsePrefix` put before a run's answer in `target`'s chat, if any. */
  replyPrefix?(target: DeliveryTarget, sessionKey: string, run: FinishedRun): string | undefined;
  /** Whether `target`'s chat gets failure notices (`errorPolicy`; absent: always). */
  errorPolicy?(target: DeliveryTarget): ErrorPolicy;
  /** Auto-TTS: which run replies are also spoken, and their audio; absent: replies stay text. */
  autoSpeech?: AutoSpeechPort;
}

/** What a run's delivery knows about the turn beyond its record. */
export interface RunDeliveryOptions {
  /** The message answered carried audio (a voice note): `tts.auto: inbound` speaks the reply. */
  inboundAudio?: boolean;
}

/** The ledger id of a run reply's spoken copy. */
export function speechIdOf(id: string): string {
  return `${id}#speech`;
}

/** What a streamed draft says when its reply turned out silent and the platform would not delete it. */
const SILENT_DRAFT_TEXT = "(no reply)";

/** How long a merged turn remembers which chats it already answered. */
const MERGED_MEMORY_MS = 10 * 60_000;

/**
 * Outbound replies with the ledger's guarantee: recorded before they are sent, marked after,
 * retried after a crash, never sent twice. Replies to one chat go out one after another, so the
 * chunks of two replies never interleave.
 */
export class ReplyDelivery {
  private readonly chains = new Map<string, Promise<void>>();
  /** turn (primary run id) → chats it was delivered to: a merged turn answers each chat once. */
  private readonly answered = new Map<string, { targets: Set<string>; at: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Entries whose first chunk replaces a streamed draft (edit instead of a new message). */
  private readonly previews = new Map<string, string>();
  /** What the agent's `message` tool sent, per session and chat: a final reply repeating it is not sent again. */
  private readonly toolSends = new Map<string, { chat: string; at: number; text: string }[]>();
  /** Files the agent's tools posted, per session and chat: a reply with media is not spoken (Auto-TTS). */
  private readonly toolMedia = new Map<string, { chat: string; at: number }[]>();
  private readonly stopping = new AbortController();
  private readonly accountWaits = new AccountWaits();
  /** Entries an interactive caller waits for (see `DeliveryWait`). */
  private readonly interactive = new Set<string>();

  private readonly errorNotices = new SentErrorNotices();

  constructor(private readonly deps: ReplyDeliveryDeps) {}

  /** A run was accepted whose answer belongs to `target`: remember it before the model runs. */
  expect(id: string, target: DeliveryTarget, meta: Omit<DeliveryMeta, "speech">): Promise<void> {
    this.deps.ledger.expect(id, target, meta);
    return this.deps.ledger.whenDurable();
  }

  /**
   * The reply for an expected entry is known. `turnId` names the turn that produced it: when
   * several accepted messages were answered by one merged turn, each chat gets it once.
   */
  async deliverReply(id: string, text: string, turnId?: string, previewMessageId?: string): Promise<void> {
    const entry = this.deps.ledger.get(id);
    if (!entry || entry.state === "delivered" || entry.state === "failed" || entry.state === "suppressed") return;
    if (!text.trim()) return this.suppress(id, "no reply (NO_REPLY or empty)", previewMessageId);
    if (turnId && this.alreadyAnswered(turnId, entry.target)) return this.suppress(id, `answered together with ${turnId}`, previewMessageId);
    if (previewMessageId) this.previews.set(id, previewMessageId);
    await this.record(id, text);
    await this.flush(id);
  }

  /**
   * Record a reply durably and send it in the background: for the inbound path, which must not
   * hold a platform's update loop while a message goes out (the ledger already guarantees it).
   */
  async queueText(id: string, target: DeliveryTarget, text: string, meta: Pick<DeliveryMeta, "runId"> = {}): Promise<void> {
    if (!this.deps.ledger.get(id)) this.deps.ledger.expect(id, target, meta);
    await this.record(id, text);
    void this.flush(id);
  }

  /** Chunk at the account's limits and write the chunks to the ledger (before anything is sent). */
  private async record(id: string, text: string): Promise<void> {
    const entry = this.deps.ledger.get(id);
    if (entry?.state !== "awaiting-reply") return;
    const available = this.deps.account(entry.target.channel, entry.target.accountId);
    const limits = available.state === "gone" ? undefined : available.limits;
    const chunks = limits ? this.chunk(id, text, limits) : [text];
    this.deps.ledger.recordReply(id, chunks.length > 0 ? chunks : [text]);
    await this.deps.ledger.whenDurable();
  }

  /** The reply in chunks; when no cut keeps its code blocks whole, in plain lines rather than not at all. */
  private chunk(id: string, text: string, channelLimits: ChannelLimits): string[] {
    const limits = { maxChars: channelLimits.textChunkLimit, maxLines: channelLimits.maxLinesPerMessage };
    try {
      return channelLimits.chunkMode === "newline" ? chunkByParagraph(text, limits) : chunkText(text, limits);
    } catch (err) {
      this.deps.logger.warn({ deliveryId: id, err: (err as Error).message }, "reply split as plain lines: no cut keeps its code blocks whole");
      return splitPlain(text, limits);
    }
  }

  /**
   * A run whose reply belongs to the expected entry `id` ended: deliver what it said, or record
   * why nothing is sent (NO_REPLY, aborted, or the `message` tool already sent this very text).
   */
  async deliverRun(id: string, sessionKey: string, run: FinishedRun, previewMessageId?: string, streamed?: StreamedReply, options: RunDeliveryOptions = {}): Promise<void> {
    const entry = this.deps.ledger.get(id);
    if (!entry) return;
    // A room event keeps the room quiet, failures included: the agent speaks only through the `message` tool.
    if (entry.replyVia === "message_tool_only") return this.suppress(id, ROOM_EVENT_QUIET, previewMessageId);
    const reply = replyForRun(run);
    if ("suppress" in reply) return this.suppress(id, reply.suppress, previewMessageId);
    const failed = run.status !== "ok" && run.status !== "aborted";
    const policy = failed ? (this.deps.errorPolicy?.(entry.target) ?? "always") : "always";
    if (policy === "silent") return this.suppress(id, "a failure notice, and this chat's errorPolicy is silent", previewMessageId);
    if (policy === "once" && !this.errorNotices.admit(chatKeyOf(entry.target), reply.text)) {
      return this.suppress(id, "the same failure notice went to this chat within the hour (errorPolicy: once)", previewMessageId);
    }
    if (entry.streamed && run.status === "ok") {
      // The answer went out in blocks; what the reply adds after it (a usage footer) still goes.
      const spoken = await this.oweSpeech(entry, sessionKey, reply.text, run, options);
      const rest = textAfterStream(reply.text, streamed);
      if (!rest.trim()) await this.suppress(id, "sent as block replies", previewMessageId);
      else await this.deliverReply(id, rest, reply.turnId, previewMessageId);
      if (spoken) this.sendSpeechAfter(id);
      return;
    }
    const since = run.startedAt ?? run.acceptedAt ?? 0;
    const chat = chatKeyOf(entry.target);
    const text = normalizeReply(reply.text);
    if ((this.toolSends.get(sessionKey) ?? []).some((s) => s.at >= since && s.chat === chat && s.text === text)) {
      return this.suppress(id, "already sent by the message tool", previewMessageId);
    }
    // An answer carries the prefix (and may be spoken); a failure notice does not.
    const answered = run.status === "ok";
    const prefix = answered ? this.deps.replyPrefix?.(entry.target, sessionKey, run) : undefined;
    const spoken = answered && (await this.oweSpeech(entry, sessionKey, reply.text, run, options));
    await this.deliverReply(id, withResponsePrefix(reply.text, prefix), reply.turnId, previewMessageId);
    if (spoken) this.sendSpeechAfter(id);
  }

  /**
   * Auto-TTS: when the reply is to be spoken, its spoken copy is an entry of its own (`<id>#speech`,
   * the text to speak as its one chunk), on disk before the reply's text is sent. It goes behind
   * the text in the chat's queue; after a crash the ledger sends it like any owed entry.
   */
  private async oweSpeech(entry: DeliveryEntry, sessionKey: string, reply: string, run: FinishedRun, options: RunDeliveryOptions): Promise<boolean> {
    const port = this.deps.autoSpeech;
    if (!port) return false;
    const since = run.startedAt ?? run.acceptedAt ?? 0;
    const sentMedia = () => (this.toolMedia.get(sessionKey) ?? []).some((m) => m.at >= since && m.chat === chatKeyOf(entry.target));
    const speak = port.spokenText(sessionKey, entry.target, reply, { inboundAudio: options.inboundAudio === true, sentMedia });
    if (!speak) return false;
    // The voice note follows the reply; it does not quote the user's message again.
    const { replyToMessageId: _quoted, replyToEveryChunk: _every, ...target } = entry.target;
    const id = speechIdOf(entry.id);
    this.deps.ledger.expect(id, target, { sessionKey, speech: true });
    this.deps.ledger.recordReply(id, [speak]);
    await this.deps.ledger.whenDurable();
    return true;
  }

  /** The reply's spoken copy goes out behind its text; a reply that was not sent (a merged turn's second answer) is not spoken either. */
  private sendSpeechAfter(id: string): void {
    const speechId = speechIdOf(id);
    const speech = this.deps.ledger.get(speechId);
    if (speech?.state !== "pending") return;
    const text = this.deps.ledger.get(id);
    if (text?.state === "suppressed" && !text.streamed) {
      this.deps.ledger.finish(speechId, "suppressed", "its reply was not sent");
      return;
    }
    void this.flush(speechId);
  }

  /**
   * One block of a run's answer, streamed while the run goes on: an entry of its own, recorded
   * before it is sent and sent behind the blocks before it. The run's entry is marked first, so
   * neither the run's end nor a restart sends the answer again. Like every message of the agent
   * it carries the reply prefix; only the first block quotes the user's message unless every
   * message of the reply does (`replyToMode: all`, Slack threads).
   */
  async queueBlock(runId: string, sessionKey: string, index: number, text: string, model: string | undefined): Promise<void> {
    const entry = this.deps.ledger.get(runId);
    if (entry?.state !== "awaiting-reply") return;
    this.deps.ledger.markStreamed(runId);
    const prefix = this.deps.replyPrefix?.(entry.target, sessionKey, { status: "ok", ...(model ? { result: { model } } : {}) });
    const { replyToMessageId: _quoted, ...unquoted } = entry.target;
    const target = index === 0 || entry.target.replyToEveryChunk ? entry.target : unquoted;
    await this.queueText(`${runId}#block${index}`, target, withResponsePrefix(text, prefix), entry.runId ? { runId: entry.runId } : {});
  }

  /** Whether the `message` tool posted to `target` for `sessionKey` since `since` (ms). */
  sentByToolSince(sessionKey: string, target: DeliveryTarget, since: number): boolean {
    const chat = chatKeyOf(target);
    return (this.toolSends.get(sessionKey) ?? []).some((s) => s.at >= since && s.chat === chat);
  }

  /** The `message` tool posted `text` to `target` for `sessionKey` (OpenClaw's didSendViaMessagingTool). */
  noteToolSend(sessionKey: string, target: DeliveryTarget, text: string): void {
    const now = Date.now();
    const sends = (this.toolSends.get(sessionKey) ?? []).filter((s) => now - s.at < MERGED_MEMORY_MS);
    sends.push({ chat: chatKeyOf(target), at: now, text: normalizeReply(text) });
    this.toolSends.set(sessionKey, sends);
  }

  /** A tool of `sessionKey`'s run posted a file to `target` (the `message` tool's file, the `tts` tool): that turn's reply is not spoken. */
  noteToolMedia(sessionKey: string, target: DeliveryTarget): void {
    const now = Date.now();
    const sends = (this.toolMedia.get(sessionKey) ?? []).filter((s) => now - s.at < MERGED_MEMORY_MS);
    sends.push({ chat: chatKeyOf(target), at: now });
    this.toolMedia.set(sessionKey, sends);
  }

  /** The run whose reply the bot sent as `message`, while the ledger's reply-run index keeps the link. */
  runOfSentMessage(message: SentMessageRef): string | undefined {
    return this.deps.ledger.runOfSentMessage(message);
  }

  /** Send a text that needs no run (command answers, pairing codes, `send`): recorded, then delivered. */
  async deliverText(id: string, target: DeliveryTarget, text: string, wait: DeliveryWait = "durable"): Promise<DeliveryEntry | undefined> {
    const existing = this.deps.ledger.get(id);
    if (!existing) this.deps.ledger.expect(id, target, {});
    if (wait === "interactive") this.interactive.add(id);
    try {
      await this.deliverReply(id, text);
    } finally {
      this.interactive.delete(id);
    }
    return this.deps.ledger.get(id);
  }

  /** Nothing is sent for the entry; the draft streamed for it (`previewMessageId`), if any, is taken out of the chat. */
  async suppress(id: string, reason: string, previewMessageId?: string): Promise<void> {
    this.deps.ledger.finish(id, "suppressed", reason);
    const entry = this.deps.ledger.get(id);
    if (previewMessageId && entry) await this.removeDraft(entry, previewMessageId);
  }

  /**
   * A streamed draft whose reply turned out silent (NO_REPLY, /stop, already sent by the
   * `message` tool) must not stay in the chat as if it were the answer: it is deleted, or where
   * the platform refuses that, edited to say no reply was sent.
   */
  private async removeDraft(entry: DeliveryEntry, messageId: string): Promise<void> {
    const { target } = entry;
    const available = this.deps.account(target.channel, target.accountId);
    const where = { chatId: target.chatId, threadId: target.threadId };
    const log = { deliveryId: entry.id, channel: target.channel, chatId: target.chatId, messageId };
    if (available.state !== "running") {
      this.deps.logger.warn(log, "streamed draft of a silent reply left in the chat: its channel account is not running");
      return;
    }
    try {
      if (!available.account.deleteMessage) throw new Error(`${target.channel} cannot delete messages`);
      await available.account.deleteMessage(where, messageId);
      return;
    } catch (err) {
      this.deps.logger.debug({ ...log, err: (err as Error).message }, "streamed draft not deleted; marking it instead");
    }
    try {
      if (!available.account.editMessage) throw new Error(`${target.channel} cannot edit messages`);
      await available.account.editMessage(where, messageId, { markdown: SILENT_DRAFT_TEXT });
    } catch (err) {
      this.deps.logger.warn({ ...log, err: (err as Error).message }, "streamed draft of a silent reply could not be deleted nor edited");
    }
  }

  /** Send whatever chunks of the entry are still unsent, in order, behind earlier replies to the same chat. */
  flush(id: string): Promise<void> {
    const entry = this.deps.ledger.get(id);
    if (!entry) return Promise.resolve();
    const chat = chatKeyOf(entry.target);
    const previous = this.chains.get(chat) ?? Promise.resolve();
    const next = previous.then(() => this.sendPending(id));
    const tail = next.catch(() => {});
    this.chains.set(chat, tail);
    void tail.finally(() => {
      if (this.chains.get(chat) === tail) this.chains.delete(chat);
    });
    return next;
  }

  /**
   * An account started, failed to start, or was stopped for good: replies waiting for it look at
   * it again (and go out, or fail with the reason), and those waiting for a retry go now.
   */
  accountChanged(channel: string, accountId: string): void {
    this.accountWaits.notify(channel, accountId);
    for (const entry of this.deps.ledger.unfinished()) {
      if (entry.state === "pending" && entry.target.channel === channel && entry.target.accountId === accountId) void this.flush(entry.id);
    }
  }

  /** After a restart: send what was recorded but not sent. Entries still waiting for their run's reply are left to `resolvePending`. */
  async recover(resolveAwaiting: (entry: DeliveryEntry) => { text: string; turnId?: string } | { suppress: string } | { drop: string } | null): Promise<number> {
    let resumed = 0;
    for (const entry of this.deps.ledger.unfinished()) {
      if (entry.state === "pending") {
        resumed += 1;
        void this.flush(entry.id);
        continue;
      }
      const decision = resolveAwaiting(entry);
      if (!decision) continue;
      resumed += 1;
      if ("text" in decision) void this.deliverReply(entry.id, decision.text, decision.turnId);
      else if ("suppress" in decision) void this.suppress(entry.id, decision.suppress);
      else this.deps.ledger.finish(entry.id, "failed", decision.drop);
    }
    return resumed;
  }

  async close(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.race([Promise.allSettled([...this.chains.values()]), new Promise((r) => setTimeout(r, 1_000))]);
    await this.deps.ledger.whenDurable().catch(() => {});
  }

  private alreadyAnswered(turnId: string, target: DeliveryTarget): boolean {
    const now = Date.now();
    for (const [key, value] of this.answered) if (now - value.at > MERGED_MEMORY_MS) this.answered.delete(key);
    const chat = chatKeyOf(target);
    const seen = this.answered.get(turnId);
    if (seen?.targets.has(chat)) return true;
    if (seen) seen.targets.add(chat);
    else this.answered.set(turnId, { targets: new Set([chat]), at: now });
    return false;
  }

  private async sendPending(id: string): Promise<void> {
    const owed = this.deps.ledger.get(id);
    if (owed?.state !== "pending" || !owed.chunks) return;
    const wait = this.interactive.has(id) ? "interactive" : "durable";
    const running = await this.whenAccountRuns(owed.target.channel, owed.target.accountId, wait, owed.id);
    if (this.stopping.signal.aborted) return;
    if (running.state === "gone") return this.giveUp(owed, running.reason);
    const entry = this.deps.ledger.get(id);
    if (entry?.state !== "pending" || !entry.chunks) return;
    if (entry.speech) return this.sendSpeech(entry, running.account);
    const { target } = entry;
    // Ledger entries are snapshots: `sent` here is what was sent before this attempt began.
    const sent = new Set(Object.keys(entry.sent).map(Number));
    const preview = this.previews.get(id);
    if (preview && !sent.has(0) && running.account.editMessage) {
      try {
        await running.account.editMessage({ chatId: target.chatId, threadId: target.threadId }, preview, { markdown: entry.chunks[0]! });
        this.deps.ledger.markSent(id, 0, preview);
        sent.add(0);
        await this.deps.ledger.whenDurable();
      } catch (err) {
        // The draft could not be replaced (deleted, too old): the answer goes out as new messages.
        this.deps.logger.debug({ deliveryId: id, err: (err as Error).message }, "preview not replaced");
      }
    }
    this.previews.delete(id);
    for (let index = 0; index < entry.chunks.length; index += 1) {
      if (sent.has(index)) continue;
      const outcome = await sendWithRetry(
        running.account,
        { chatId: target.chatId, threadId: target.threadId, replyToMessageId: index === 0 || target.replyToEveryChunk ? target.replyToMessageId : undefined },
        { markdown: entry.chunks[index]! },
        this.deps.retry ?? DEFAULT_RETRY_POLICY,
        this.stopping.signal,
      );
      if (this.stopping.signal.aborted && !outcome.ok) return;
      if (!outcome.ok) {
        this.deps.logger.warn({ deliveryId: id, channel: target.channel, chatId: target.chatId, error: outcome.error }, "reply delivery failed");
        // An interactive caller is told the send failed, so it must not go out later behind its back.
        if (outcome.permanent || this.interactive.has(id)) {
          this.deps.ledger.finish(id, "failed", outcome.error);
          await this.deps.ledger.whenDurable();
          this.emitSent(entry, false, outcome.error);
          return;
        }
        return this.retryLater(id, outcome.error);
      }
      this.deps.ledger.markSent(id, index, outcome.sent.messageId);
      await this.deps.ledger.whenDurable();
    }
    this.deps.ledger.finish(id, "delivered");
    await this.deps.ledger.whenDurable();
    this.emitSent(entry, true);
  }

  /**
   * An Auto-TTS entry: its text spoken now (again, after a restart) and posted as audio, a voice
   * note where the channel has them. No audio made (the provider failed, refused the key, timed
   * out) ends the entry as failed with the reason logged: the reply's text already went. A post
   * the platform refused is retried as a text chunk is.
   */
  private async sendSpeech(entry: DeliveryEntry, account: ChannelAccount): Promise<void> {
    const { id, target } = entry;
    // Posted before a crash, and marked: only its finish was lost.
    if (entry.sent[0] !== undefined) {
      this.deps.ledger.finish(id, "delivered");
      await this.deps.ledger.whenDurable();
      return;
    }
    const log = { deliveryId: id, channel: target.channel, chatId: target.chatId };
    const made = this.deps.autoSpeech ? await this.deps.autoSpeech.synthesize(entry.chunks![0]!, target.channel) : { ok: false as const, reason: "Auto-TTS is not set up here" };
    if (!made.ok) {
      this.deps.logger.warn({ ...log, reason: made.reason }, "reply not spoken (tts.auto): no audio was made; the reply went as text only");
      this.deps.ledger.finish(id, "failed", made.reason);
      await this.deps.ledger.whenDurable();
      return;
    }
    try {
      const sent = await account.sendFile({ chatId: target.chatId, ...(target.threadId ? { threadId: target.threadId } : {}) }, made.file);
      this.deps.ledger.markSent(id, 0, sent.messageId);
      this.deps.ledger.finish(id, "delivered");
      await this.deps.ledger.whenDurable();
    } catch (err) {
      if (this.stopping.signal.aborted) return;
      this.deps.logger.warn({ ...log, err: (err as Error).message }, "spoken reply not posted (tts.auto)");
      await this.retryLater(id, (err as Error).message);
    }
  }

  /**
   * The account once it runs. An account that is down is waited for, up to the wait limit
   * (short for an interactive caller), without counting failed attempts: a restart is not the
   * platform refusing the reply.
   */
  async whenAccountRuns(channel: string, accountId: string, wait: DeliveryWait, deliveryId?: string): Promise<Exclude<AccountAvailability, { state: "down" }>> {
    const limitMs = wait === "interactive" ? INTERACTIVE_ACCOUNT_WAIT_MS : (this.deps.accountWaitMs ?? ACCOUNT_WAIT_LIMIT_MS);
    const deadline = Date.now() + limitMs;
    let available = this.deps.account(channel, accountId);
    if (available.state === "down") {
      this.deps.logger.warn({ deliveryId, channel, accountId }, `channel account not running; the reply waits for it (up to ${formatMinutes(limitMs)})`);
    }
    while (available.state === "down" && Date.now() < deadline && !this.stopping.signal.aborted) {
      await this.accountWaits.next(channel, accountId, deadline - Date.now(), this.stopping.signal);
      available = this.deps.account(channel, accountId);
    }
    if (available.state !== "down") return available;
    if (this.stopping.signal.aborted) return { state: "gone", reason: "the gateway is stopping" };
    if (wait === "interactive") {
      return { state: "gone", reason: `channel ${channel} account ${accountId} is restarting (not running after ${formatMinutes(limitMs)}); try again in a moment` };
    }
    return {
      state: "gone",
      reason: `channel ${channel} account ${accountId} did not run again within ${formatMinutes(limitMs)}; check openclaw channels status for its last error`,
    };
  }

  private async giveUp(entry: DeliveryEntry, reason: string): Promise<void> {
    const error = `${reason}; the reply was not sent`;
    this.deps.logger.error({ deliveryId: entry.id, channel: entry.target.channel, accountId: entry.target.accountId, chatId: entry.target.chatId }, error);
    this.deps.ledger.finish(entry.id, "failed", error);
    await this.deps.ledger.whenDurable();
    this.emitSent(entry, false, error);
  }

  private emitSent(entry: DeliveryEntry, success: boolean, error?: string): void {
    const { target } = entry;
    // The stability stream keeps the outcome and its timing, never the text or the error's words.
    stability.record(success ? "message.delivery.completed" : "message.delivery.error", {
      channel: target.channel,
      deliveryKind: entry.runId ? "reply" : "send",
      durationMs: Date.now() - entry.createdAt,
      ...(success ? { outcome: "completed", count: entry.chunks?.length ?? 0 } : { outcome: "error", reason: "send_failed" }),
    });
    this.deps.hooks?.emit({
      type: "message",
      action: "sent",
      ...(entry.sessionKey ? { sessionKey: entry.sessionKey } : {}),
      context: {
        channel: target.channel,
        accountId: target.accountId,
        to: target.chatId,
        ...(target.threadId ? { threadId: target.threadId } : {}),
        content: (entry.chunks ?? []).join("\n"),
        success,
        ...(error ? { error } : {}),
        deliveryId: entry.id,
        ...(entry.runId ? { runId: entry.runId } : {}),
      },
    });
  }

  private async retryLater(id: string, error: string): Promise<void> {
    const after = this.deps.ledger.markAttemptFailed(id, error);
    await this.deps.ledger.whenDurable();
    if (after.state === "failed") {
      const { target } = after;
      this.deps.logger.warn(
        { deliveryId: id, channel: target.channel, accountId: target.accountId, chatId: target.chatId, attempts: after.attempts, error },
        "reply given up: its last delivery attempt failed",
      );
      this.emitSent(after, false, error);
      return;
    }
    if (this.stopping.signal.aborted) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.flush(id);
      },
      (this.deps.redeliverAfterMs ?? 30_000) * after.attempts,
    );
    timer.unref();
    this.timers.add(timer);
  }
}

function formatMinutes(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1 ? `${minutes} min` : `${Math.round(ms / 1000)} s`;
}

/** One chat (and thread) of one bot account. */
function chatKeyOf(target: DeliveryTarget): string {
  return `${target.channel}|${target.accountId}|${target.chatId}|${target.threadId ?? ""}`;
}

/** What a run's reply says beyond the message that already went out in blocks; all of it when it does not start with that message. */
function textAfterStream(text: string, streamed: StreamedReply | undefined): string {
  const last = streamed?.lastMessage.trim();
  if (!last) return text;
  const start = text.trimStart();
  return start.startsWith(last) ? start.slice(last.length) : text;
}

/** Replies compared for "already sent": whitespace and case do not make a different message. */
function normalizeReply(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

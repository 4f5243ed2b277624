import path from "node:path";
import type { AcpSettings } from "../acp/config.js";
import type { AcpSessionManager } from "../acp/control-plane/manager.js";
import type { AcpSessionRecord } from "../acp/control-plane/session-records.js";
import { KeyedJsonLinesLog } from "../infra/keyed-json-lines-log.js";
import type { Logger } from "../infra/logger.js";
import type { DeliveryTarget } from "./outbound/delivery-ledger.js";
import type { AcpRuntimeEvent } from "../acp/runtime/types.js";
import { BoundReplyBlocks } from "./acp-bound-reply-blocks.js";
import { acpBindingId, type AcpBinding } from "./routing/acp-binding.js";

export interface AcpBoundChatsDeps {
  stateDir: string;
  manager: AcpSessionManager;
  settings: () => AcpSettings;
  /** The directory a binding without `acp.cwd` works in (the default agent's workspace). */
  defaultCwd: () => string;
  /** How long one bound turn may run: the agent run budget, `agents.defaults.timeoutSeconds` (0 = no limit). */
  turnTimeoutSeconds: () => number;
  /** Exactly-once text delivery to a chat (the delivery ledger's `queueText`). */
  deliver: (id: string, target: DeliveryTarget, text: string) => Promise<void>;
  /** Shows "typing…" in the chat until the returned stop is called. */
  typing: (target: DeliveryTarget) => () => void;
  logger: Logger;
}

/** One message handed to a bound ACP session. */
export interface AcpBoundMessage {
  binding: AcpBinding;
  /** The message's dedupe key: names the turn and its reply, so neither happens twice. */
  key: string;
  text: string;
  target: DeliveryTarget;
  /** The chat's own session (the ACP session's requester, for `/acp sessions` and `/acp status`). */
  chatSessionKey: string;
}

/** A bound turn accepted but not yet answered: what a restart must tell the chat about. */
interface PendingTurn {
  target: DeliveryTarget;
  agent: string;
}
type PendingLine = { k: string; target: DeliveryTarget; agent: string } | { k: string; done: 1 };

/** The session states a follow-up can still go to. */
const USABLE: ReadonlySet<AcpSessionRecord["state"]> = new Set(["starting", "ready", "running", "idle"]);

/**
 * Chats bound to an external ACP agent by a `type: "acp"` binding: each message goes straight to
 * the binding's session (created on the first message, replaced when it went stale or closed)
 * and the agent's reply comes back to the chat, once: in blocks while it is written
 * (`acp.stream.deliveryMode: live`), or whole when the turn ends (`final_only`). Chat commands
 * never get here: the gateway answers them. A turn is recorded before it starts; one a restart
 * cut short is answered with a notice that it was lost, never run twice behind the user's back
 * (its edits may have happened).
 */
export class AcpBoundChats {
  private readonly pending: KeyedJsonLinesLog<PendingTurn, PendingLine>;
  /** Each bound session's chat, from its latest message (where a permission question goes). */
  private readonly chats = new Map<string, DeliveryTarget>();

  constructor(private readonly deps: AcpBoundChatsDeps) {
    this.pending = new KeyedJsonLinesLog<PendingTurn, PendingLine>(
      path.join(deps.stateDir, "acp", "bound-turns.jsonl"),
      {
        replay: (entries, line) => {
          const l = line as Partial<PendingLine> & { k?: unknown };
          if (typeof l?.k !== "string") return;
          if ("done" in l) entries.delete(l.k);
          else if ("target" in l && l.target && typeof l.agent === "string") entries.set(l.k, { target: l.target, agent: l.agent });
        },
        prune: () => {},
        snapshot: (value, k) => ({ k, target: value.target, agent: value.agent }),
      },
      { factor: 4, minLines: 200 },
    );
  }

  /** Tells each chat whose bound turn the last process left unfinished that its answer was lost. */
  async recover(): Promise<void> {
    for (const [key, turn] of [...this.pending.entries]) {
      await this.deps.deliver(
        `acp-bound:${key}`,
        turn.target,
        `⚠️ The gateway restarted while ACP agent \`${turn.agent}\` was working on your message, and its answer was lost. Send the message again if you still need it.`,
      );
      this.finish(key);
    }
  }

  /** The chat a bound session talks in, if it is one. */
  chatOf(sessionKey: string): DeliveryTarget | undefined {
    return this.chats.get(sessionKey);
  }

  /**
   * Records the turn (durably) and starts it; resolves once it is recorded, so the platform can
   * be acknowledged without waiting for the agent.
   */
  async submit(message: AcpBoundMessage): Promise<void> {
    const { binding, key, target } = message;
    const agent = binding.agentId.toLowerCase();
    this.pending.append({ k: key, target, agent });
    this.pending.entries.set(key, { target, agent });
    this.pending.compactIfDue();
    await this.pending.whenDurable();
    void this.run(message, agent);
  }

  private async run(message: AcpBoundMessage, agent: string): Promise<void> {
    const { key, target } = message;
    const stopTyping = this.deps.typing(target);
    const { stream } = this.deps.settings();
    // `deliveryMode: live`: the reply goes out in blocks while the agent writes it (its thoughts never).
    const blocks = stream.deliveryMode === "live" ? new BoundReplyBlocks(stream, (n, text) => this.deps.deliver(`acp-bound:${key}:${n}`, target, text)) : undefined;
    /** The agent's whole text (and whether its turn was cancelled), or what went wrong. */
    let outcome: { text: string; cancelled?: true } | { error: string };
    try {
      const sessionKey = this.sessionFor(message, agent);
      this.chats.delete(sessionKey);
      this.chats.set(sessionKey, target);
      if (this.chats.size > 1_000) this.chats.delete(this.chats.keys().next().value!);
      const seconds = this.deps.turnTimeoutSeconds();
      const result = await this.deps.manager.runTurn({
        sessionKey,
        text: message.text,
        mode: "prompt",
        ...(blocks ? { onEvent: (event: AcpRuntimeEvent) => replyText(event, blocks) } : {}),
        ...(seconds > 0 ? { timeout: { seconds, setting: "agents.defaults.timeoutSeconds" } } : {}),
      });
      outcome = result.ok ? { text: result.text.trim(), ...(result.stopReason === "cancelled" ? { cancelled: true } : {}) } : { error: result.error?.message ?? "the turn failed" };
    } catch (err) {
      outcome = { error: (err as Error).message };
    } finally {
      stopTyping();
    }
    try {
      await blocks?.finish();
      // Streamed, the blocks were the reply; a failure is told after what was written.
      if ("error" in outcome) await this.deps.deliver(`acp-bound:${key}`, target, `⚠️ ACP agent \`${agent}\`: ${outcome.error}`);
      else if (!blocks?.sent) await this.deps.deliver(`acp-bound:${key}`, target, outcome.text || emptyReply(agent, outcome.cancelled === true));
      this.finish(key);
    } catch (err) {
      this.deps.logger.error({ key, err: (err as Error).message }, "the reply of a bound ACP session could not be queued; the next start tells the chat");
    }
  }

  /** The binding's live session, or a new one when it has none (or the agent or mode changed). */
  private sessionFor(message: AcpBoundMessage, agent: string): string {
    const { binding } = message;
    const id = acpBindingId(binding);
    const mode = binding.acp?.mode ?? "persistent";
    const settings = this.deps.settings();
    if (!settings.enabled) throw new Error("ACP is disabled (acp.enabled: false), so this chat's binding cannot reach its agent.");
    if (!settings.dispatchEnabled) {
      throw new Error(
        "ACP dispatch is disabled by policy (acp.dispatch.enabled: false), so this message did not reach the agent: set acp.dispatch.enabled to true to resume (/acp commands and sessions_spawn with runtime acp still work).",
      );
    }
    if (!settings.agents[agent]) throw new Error(`no ACP agent "${agent}" is configured (acp.agents or plugins.entries.acpx.config.agents).`);
    if (settings.allowedAgents.length > 0 && !settings.allowedAgents.includes(agent))
      throw new Error(`it is not in acp.allowedAgents (${settings.allowedAgents.join(", ")}), so this chat's binding cannot reach it.`);
    if (mode === "persistent") {
      const current = this.deps.manager.list().find((r) => r.binding === id && USABLE.has(r.state));
      if (current && current.agent === agent) return current.sessionKey;
      if (current) void this.deps.manager.close(current.sessionKey, "binding changed its agent");
    }
    const cwd = binding.acp?.cwd ? path.resolve(this.deps.defaultCwd(), binding.acp.cwd) : this.deps.defaultCwd();
    const record = this.deps.manager.createSession({
      agent,
      mode,
      cwd,
      binding: id,
      requesterSessionKey: message.chatSessionKey,
      ...(binding.acp?.label ? { label: binding.acp.label } : {}),
    });
    this.deps.logger.info({ binding: id, sessionKey: record.sessionKey, agent, mode }, "ACP binding: new session");
    return record.sessionKey;
  }

  private finish(key: string): void {
    if (!this.pending.entries.has(key)) return;
    this.pending.append({ k: key, done: 1 });
    this.pending.entries.delete(key);
    this.pending.compactIfDue();
  }

  close(): void {
    this.pending.close();
  }
}

/** The agent's words (not its thoughts) go to the chat's blocks as they come. */
function replyText(event: AcpRuntimeEvent, blocks: BoundReplyBlocks): void {
  if (event.type === "text_delta" && event.stream !== "thought") blocks.push(event.text);
}

/** What the chat is told when the agent's turn ended without a word. */
function emptyReply(agent: string, cancelled: boolean): string {
  return cancelled ? `(ACP agent \`${agent}\` stopped: its turn was cancelled before it replied.)` : `(ACP agent \`${agent}\` finished without a reply.)`;
}

/** How many messages a pair of bots may exchange in a window before the pair is muted for a while (`botLoopProtection`). */
export interface BotLoopSettings {
  enabled: boolean;
  maxEventsPerWindow: number;
  windowSeconds: number;
  cooldownSeconds: number;
}

/** OpenClaw's defaults: 20 messages a minute, then a minute of silence. */
export const DEFAULT_BOT_LOOP_SETTINGS: BotLoopSettings = { enabled: true, maxEventsPerWindow: 20, windowSeconds: 60, cooldownSeconds: 60 };

/** Where and between whom a bot-authored message travels. */
export interface BotExchange {
  /** The account and conversation (`<channel>:<account>:<chat>`). */
  scope: string;
  senderBotId: string;
  receiverBotId: string;
}

export type BotLoopVerdict = { admit: true } | { admit: false; tripped: boolean; untilMs: number };

interface PairState {
  events: number[];
  mutedUntil: number;
}

/**
 * Stops two bots from answering each other for ever: each bot-authored message that reaches the
 * pipeline counts for its pair (A→B and B→A are one pair) in its conversation; past
 * `maxEventsPerWindow` within `windowSeconds`, the pair's messages are dropped for
 * `cooldownSeconds`. Human messages never count. State is in memory: a restart forgets it.
 */
export class BotLoopGuard {
  private readonly pairs = new Map<string, PairState>();

  constructor(private readonly now: () => number = Date.now) {}

  admit(exchange: BotExchange, settings: BotLoopSettings): BotLoopVerdict {
    if (!settings.enabled) return { admit: true };
    const [a, b] = [exchange.senderBotId, exchange.receiverBotId].sort();
    const key = `${exchange.scope}|${a}|${b}`;
    const now = this.now();
    const state = this.pairs.get(key) ?? { events: [], mutedUntil: 0 };
    if (now < state.mutedUntil) return { admit: false, tripped: false, untilMs: state.mutedUntil };
    const since = now - settings.windowSeconds * 1000;
    state.events = state.events.filter((at) => at > since);
    state.events.push(now);
    this.pairs.set(key, state);
    if (state.events.length <= settings.maxEventsPerWindow) {
      this.forgetIdle(since);
      return { admit: true };
    }
    state.events = [];
    state.mutedUntil = now + settings.cooldownSeconds * 1000;
    return { admit: false, tripped: true, untilMs: state.mutedUntil };
  }

  /** Pairs with nothing in their window and no cooldown left are forgotten, so the map stays small. */
  private forgetIdle(since: number): void {
    if (this.pairs.size < 256) return;
    const now = this.now();
    for (const [key, state] of this.pairs) {
      if (state.mutedUntil <= now && state.events.every((at) => at <= since)) this.pairs.delete(key);
    }
  }
}

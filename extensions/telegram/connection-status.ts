import type { ChannelAccountContext } from "../../src/channels/types.js";

/**
 * Turns connection events into `reportStatus` patches, only on change, so a healthy poll loop
 * does not report every 30 seconds.
 */
export class ConnectionStatus {
  private connected = false;
  private reconnectAttempts = 0;

  constructor(private readonly report: ChannelAccountContext["reportStatus"]) {}

  started(mode: "polling" | "webhook"): void {
    this.connected = false;
    this.report({ running: true, connected: false, mode });
  }

  identified(botId: number, botUsername: string): void {
    this.report({ botId: String(botId), botUsername });
  }

  /** The platform answered: polling works, or the webhook is registered. */
  up(): void {
    if (this.connected) return;
    this.connected = true;
    this.report({ connected: true, lastConnectedAt: Date.now(), lastError: null });
  }

  /** A failure the loop retries; `lastError` must already be token-free. */
  lost(lastError: string): void {
    this.connected = false;
    this.reconnectAttempts++;
    this.report({ connected: false, lastError, reconnectAttempts: this.reconnectAttempts });
  }

  /** A failure nothing retries (the token was rejected). */
  failed(lastError: string): void {
    this.connected = false;
    this.report({ connected: false, lastError });
  }

  stopped(): void {
    this.connected = false;
    this.report({ running: false, connected: false });
  }
}

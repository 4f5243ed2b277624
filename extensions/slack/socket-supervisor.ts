import type { SocketModeReceiver } from "@slack/bolt";
import { ChannelPermanentError, type ChannelAccountStatus } from "../../src/channels/types.js";
import type { Logger } from "../../src/infra/logger.js";

type SocketModeClient = SocketModeReceiver["client"];

/**
 * Wait before reconnect attempt n (0-based) since the last stable connection. The first retry is
 * immediate because Slack routinely asks clients to reconnect (`disconnect` / `refresh_requested`);
 * after that the wait grows from 2 s to 30 s, so a flapping or unreachable Slack is not hammered.
 */
const RETRY_DELAYS_MS = [0, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A connection that lasted this long was healthy: the next drop starts the backoff over. */
const STABLE_CONNECTION_MS = 30_000;

export interface SocketSupervisorHooks {
  logger: Logger;
  /** Everything an attempt needs before the socket opens (bot identity, bolt App). */
  prepare(): Promise<void>;
  reportStatus(patch: Partial<Omit<ChannelAccountStatus, "accountId">>): void;
  /** A token-free one-liner for an error. */
  describeError(error: unknown): string;
  /** Errors no retry can fix (revoked or wrong token). */
  isPermanent(error: unknown): boolean;
}

/**
 * Keeps one Socket Mode connection alive. The SDK's own reconnect waits its ping timeout times the
 * failure count and can leave a failed attempt as an unhandled rejection, so it is switched off
 * (`autoReconnectEnabled: false`) and this loop decides: report every state change, retry
 * transient failures with backoff, stop for good on an auth error.
 */
export class SocketSupervisor {
  private stopped = true;
  private attempting = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private connectedAt: number | undefined;
  private consecutiveRetries = 0;
  private reconnects = 0;

  constructor(
    private readonly client: SocketModeClient,
    private readonly hooks: SocketSupervisorHooks,
  ) {
    openNoSocketOnceStopped(client, () => this.stopped);
    client.on("connected", () => {
      this.connectedAt = Date.now();
      hooks.reportStatus({ connected: true, lastConnectedAt: this.connectedAt, lastError: null });
      hooks.logger.info("Slack Socket Mode connected");
    });
    client.on("disconnected", () => {
      hooks.reportStatus({ connected: false });
      // A failing attempt ends in `disconnected` too; that attempt schedules its own retry.
      if (this.attempting) return;
      const delay = this.scheduleRetry();
      if (delay !== undefined) hooks.logger.info(`Slack Socket Mode connection closed; reconnecting in ${delay} ms`);
    });
    client.on("error", (error: unknown) => hooks.reportStatus({ lastError: hooks.describeError(error) }));
  }

  /**
   * Connect once. Resolves when connected, or when a transient failure has been scheduled for
   * retry; rejects with `ChannelPermanentError` when the tokens are refused.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.client.disconnect();
  }

  private async attempt(): Promise<void> {
    this.attempting = true;
    try {
      await this.hooks.prepare();
      if (this.stopped) return;
      await this.client.start();
      // `stop` may have run while the socket was opening.
      if (this.stopped) await this.client.disconnect();
    } catch (error) {
      if (this.stopped) return;
      // The SDK rejects with nothing when the socket closes before Slack's `hello`.
      const message = error === undefined ? "Slack Socket Mode connection closed before hello" : this.hooks.describeError(error);
      if (this.hooks.isPermanent(error)) {
        this.hooks.reportStatus({ connected: false, lastError: message });
        this.hooks.logger.error(`${message}; not retrying until the account is restarted with a valid token`);
        throw new ChannelPermanentError(message);
      }
      this.hooks.reportStatus({ connected: false, lastError: message });
      const delay = this.scheduleRetry();
      if (delay !== undefined) this.hooks.logger.warn(`${message}; retrying in ${delay} ms`);
    } finally {
      this.attempting = false;
    }
  }

  /** Schedule the next attempt; answers its delay, or `undefined` when none is due (stopped, already scheduled). */
  private scheduleRetry(): number | undefined {
    if (this.stopped || this.retryTimer) return undefined;
    if (this.connectedAt !== undefined && Date.now() - this.connectedAt >= STABLE_CONNECTION_MS) this.consecutiveRetries = 0;
    this.connectedAt = undefined;
    const delay = RETRY_DELAYS_MS[Math.min(this.consecutiveRetries, RETRY_DELAYS_MS.length - 1)]!;
    this.consecutiveRetries += 1;
    this.reconnects += 1;
    this.hooks.reportStatus({ reconnectAttempts: this.reconnects });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      // A permanent failure was reported by `attempt` and ends the loop; nothing else to do with it.
      this.attempt().catch(() => {});
    }, delay);
    return delay;
  }
}

/**
 * `client.start()` asks Slack for a socket URL (`apps.connections.open`) and then opens it; a
 * `disconnect()` while that call is out cannot reach the socket it does not have yet. So the URL
 * of an attempt that ends after the account stopped is refused: the start fails and no socket
 * opens for a stopped account when a slow Slack answers at last.
 */
function openNoSocketOnceStopped(client: SocketModeClient, isStopped: () => boolean): void {
  // A private method of @slack/socket-mode's client, called once per `start()`.
  const internals = client as unknown as { retrieveWSSURL(): Promise<string> };
  const retrieve = internals.retrieveWSSURL.bind(client);
  internals.retrieveWSSURL = async () => {
    const url = await retrieve();
    if (isStopped()) throw new Error("Slack Socket Mode: the account stopped before the socket opened");
    return url;
  };
}

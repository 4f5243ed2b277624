import { GatewayClient, GatewayClientError, type GatewayClientOptions } from "../../gateway/client.js";

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "closed";

export interface ConnectionEvents {
  /** A gateway event (`chat`, `agent`, …) on the current connection. */
  event(name: string, payload: unknown): void;
  state(state: ConnectionState, detail?: string): void;
  /** After a reconnect (not the first connect): the TUI reloads what it shows. */
  reconnected(): void;
}

/** Waits between reconnect attempts: quick at first, then every few seconds. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 3000, 5000];

/**
 * The TUI's link to the gateway over the CLI's WebSocket client: one connection at a time,
 * replaced by a new one (same address and credentials) when the gateway goes away, until the
 * TUI closes it. A call while disconnected fails at once with the reason.
 */
export class GatewayConnection {
  private client: GatewayClient | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: GatewayClientOptions,
    private readonly events: ConnectionEvents,
    private readonly callTimeoutMs = 30_000,
  ) {}

  get url(): string {
    return this.options.url;
  }

  /** The first connection: its failure (refused credentials, nobody listening) is the caller's to report. */
  async open(): Promise<void> {
    this.events.state("connecting");
    this.attach(await GatewayClient.connect(this.options));
  }

  async call<T>(method: string, params: unknown): Promise<T> {
    if (!this.client) throw new GatewayClientError(`${method}: not connected to the gateway (reconnecting)`);
    return (await this.client.call(method, params, { timeoutMs: this.callTimeoutMs })) as T;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.client?.close();
    this.client = undefined;
  }

  private attach(client: GatewayClient): void {
    this.client = client;
    client.onEvent((name, payload) => {
      if (this.client === client) this.events.event(name, payload);
    });
    client.onClose((code, reason) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.closed) return;
      this.events.state("reconnecting", `gateway connection lost (${code}${reason ? `: ${reason}` : ""})`);
      this.retry(0);
    });
    this.events.state("connected");
  }

  private retry(attempt: number): void {
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
    this.retryTimer = setTimeout(async () => {
      if (this.closed) return;
      try {
        const client = await GatewayClient.connect(this.options);
        if (this.closed) {
          client.close();
          return;
        }
        this.attach(client);
        this.events.reconnected();
      } catch (err) {
        if (this.closed) return;
        this.events.state("reconnecting", `reconnect failed: ${(err as Error).message}`);
        this.retry(attempt + 1);
      }
    }, delay);
  }
}

/** One connection to the gateway (the CLI's WebSocket `GatewayClient` is one). */
export interface GatewayConnection {
  call<T = unknown>(method: string, params: unknown, opts?: { timeoutMs?: number }): Promise<T>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Called once when the established connection closes. */
  onClose(listener: (code: number, reason: string) => void): () => void;
  close(): void;
}

/** Waits between reconnect attempts: quick at first, then every 2 s. */
const BACKOFF_MS = [100, 250, 500, 1000, 2000];

/**
 * A gateway connection that comes back: when it drops, its user (the ACP bridge serving an IDE,
 * the TUI) keeps running and it reconnects in the background, telling `onConnectionChange`
 * listeners both ways. Calls made while it is down fail at once with a clear error.
 */
export class ReconnectingGateway {
  private client: GatewayConnection | undefined;
  private readonly eventListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly connectionListeners = new Set<(change: { connected: boolean; reason: string }) => void>();
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private lastError = "";

  constructor(
    private readonly connect: () => Promise<GatewayConnection>,
    private readonly log: (line: string) => void,
  ) {}

  /** The first connection: its failure (wrong token, no gateway) is the caller's to report. */
  async start(first: Promise<GatewayConnection> = this.connect()): Promise<void> {
    this.attach(await first);
  }

  call<T = unknown>(method: string, params: unknown, opts: { timeoutMs?: number } = {}): Promise<T> {
    if (!this.client) return Promise.reject(new Error(`${method}: the gateway is not connected (${this.lastError || "reconnecting"}); retry in a moment`));
    return this.client.call<T>(method, params, opts);
  }

  onEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onConnectionChange(listener: (change: { connected: boolean; reason: string }) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.client?.close();
    this.client = undefined;
  }

  private attach(client: GatewayConnection): void {
    this.client = client;
    this.attempt = 0;
    client.onEvent((event, payload) => {
      for (const listener of this.eventListeners) listener(event, payload);
    });
    client.onClose((code, reason) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.stopped) return;
      this.lastError = `connection closed (${code}${reason ? `: ${reason}` : ""})`;
      this.log(`gateway disconnected: ${this.lastError}`);
      for (const listener of this.connectionListeners) listener({ connected: false, reason: this.lastError });
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!;
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.connect().then(
        (client) => {
          if (this.stopped) return client.close();
          this.attach(client);
          this.log("gateway reconnected");
          for (const listener of this.connectionListeners) listener({ connected: true, reason: "reconnected" });
        },
        (err: Error) => {
          this.lastError = err.message;
          if (!this.stopped) this.scheduleReconnect();
        },
      );
    }, delay);
  }
}

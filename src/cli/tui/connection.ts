import { GatewayClient, type GatewayClientOptions } from "../../gateway/client.js";
import { ReconnectingGateway } from "../../infra/reconnecting-connection.js";

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "closed";

export interface ConnectionEvents {
  /** A gateway event (`chat`, `agent`, …) on the current connection. */
  event(name: string, payload: unknown): void;
  state(state: ConnectionState, detail?: string): void;
  /** After a reconnect (not the first connect): the TUI reloads what it shows. */
  reconnected(): void;
}

/**
 * The TUI's link to the gateway over the CLI's WebSocket client: a ReconnectingGateway (the ACP
 * bridge's too) with the same address and credentials, its changes told as the TUI's connection
 * states. A call while disconnected fails at once with the reason.
 */
export class GatewayConnection {
  private readonly link: ReconnectingGateway;

  constructor(
    private readonly options: GatewayClientOptions,
    private readonly events: ConnectionEvents,
    private readonly callTimeoutMs = 30_000,
  ) {
    this.link = new ReconnectingGateway(
      () => GatewayClient.connect(options),
      () => {},
    );
    this.link.onEvent((name, payload) => events.event(name, payload));
    this.link.onConnectionChange((change) => {
      if (!change.connected) return events.state("reconnecting", `gateway ${change.reason}`);
      events.state("connected");
      events.reconnected();
    });
  }

  get url(): string {
    return this.options.url;
  }

  /** The first connection: its failure (refused credentials, nobody listening) is the caller's to report. */
  async open(): Promise<void> {
    this.events.state("connecting");
    await this.link.start();
    this.events.state("connected");
  }

  call<T>(method: string, params: unknown): Promise<T> {
    return this.link.call<T>(method, params, { timeoutMs: this.callTimeoutMs });
  }

  close(): void {
    this.link.stop();
  }
}

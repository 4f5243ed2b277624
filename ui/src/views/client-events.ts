import type { GatewayClient } from "../gateway-client.js";

/**
 * A view's one listener on the gateway client's events: moved to the new client when the view is
 * given one (a reconnect makes a new client), dropped when the view leaves the page.
 */
export class ClientEvents {
  private client: GatewayClient | undefined;
  private stop: (() => void) | undefined;

  constructor(private readonly listener: (event: string, payload: unknown) => void) {}

  /** Listens on `client`; nothing changes when it is the client already followed. */
  follow(client: GatewayClient): void {
    if (this.client === client) return;
    this.stop?.();
    this.stop = client.onEvent(this.listener);
    this.client = client;
  }

  release(): void {
    this.stop?.();
    this.stop = undefined;
    this.client = undefined;
  }
}

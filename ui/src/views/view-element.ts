import { LitElement, type PropertyValues } from "lit";
import type { GatewayClient } from "../gateway-client.js";

/**
 * A view of the app: rendered in the page's own DOM (one stylesheet, plain selectors), handed
 * the connected client, and asked to load again after every (re)connect — events are never
 * replayed, so state is refreshed from the gateway instead.
 */
export abstract class ViewElement extends LitElement {
  static properties = { client: { attribute: false }, generation: { type: Number } };
  declare client: GatewayClient;
  /** Bumped by the app on each hello-ok. */
  declare generation: number;

  constructor() {
    super();
    this.generation = 0;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  protected updated(changed: PropertyValues): void {
    if ((changed.has("generation") || changed.has("client")) && this.client?.hello) void this.load();
  }

  protected abstract load(): Promise<void>;
}

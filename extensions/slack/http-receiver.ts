import type { App, Receiver } from "@slack/bolt";
import type { ChannelHttpRoute } from "../../src/channels/types.js";
import type { Logger } from "../../src/infra/logger.js";
import { verifySlackSignature } from "./signature.js";

type RouteRequest = Parameters<ChannelHttpRoute["handler"]>[0];
type RouteResponse = Awaited<ReturnType<ChannelHttpRoute["handler"]>>;

export interface SlackHttpReceiverOptions {
  signingSecret: string;
  logger: Logger;
  /**
   * Make the account ready to handle events (bot identity known, bolt App built, which calls
   * `init`). Resolves false while the account is stopped; throws when Slack cannot be reached.
   */
  prepare(): Promise<boolean>;
}

/**
 * Slack's HTTP Events mode without bolt's own HTTP server: the gateway serves the route on its
 * port and hands over the raw body; this receiver checks the signature, answers Slack's URL
 * check, and gives everything else to bolt. Slack wants an answer within 3 s, so the response is
 * sent the moment bolt acknowledges (events are acked before any listener runs), never after the
 * agent has replied. Slack's retries (`X-Slack-Retry-Num`) go through again: the core dedupes.
 */
export class SlackHttpReceiver implements Receiver {
  private app: App | undefined;

  constructor(private readonly options: SlackHttpReceiverOptions) {}

  init(app: App): void {
    this.app = app;
  }

  /** Nothing to listen on: the gateway's HTTP server owns the port. */
  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  async handle(request: RouteRequest): Promise<RouteResponse> {
    const check = await verifySlackSignature({
      signingSecret: this.options.signingSecret,
      timestamp: header(request.headers, "x-slack-request-timestamp"),
      signature: header(request.headers, "x-slack-signature"),
      rawBody: request.rawBody,
    });
    if (!check.ok) {
      this.options.logger.warn(`Slack HTTP event refused: ${check.reason}`);
      return text(401, "invalid request signature");
    }

    let body: Record<string, unknown>;
    try {
      body = parseBody(request.rawBody, header(request.headers, "content-type"));
    } catch {
      return text(400, "request body is not a Slack payload");
    }
    if (body.type === "url_verification") {
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ challenge: body.challenge }) };
    }

    try {
      if (!(await this.options.prepare()) || !this.app) return text(503, "Slack account is not running");
    } catch (error) {
      this.options.logger.warn(`Slack HTTP event deferred: ${error instanceof Error ? error.message : String(error)}`);
      return text(503, "Slack account is not ready");
    }
    return this.dispatch(this.app, body, request);
  }

  private dispatch(app: App, body: Record<string, unknown>, request: RouteRequest): Promise<RouteResponse> {
    const retryNum = Number(header(request.headers, "x-slack-retry-num"));
    return new Promise((resolve) => {
      // Our listeners never ack with a payload, so an ack is always an empty 200.
      const ack = async () => resolve({ status: 200 });
      app
        .processEvent({
          body,
          ack,
          retryNum: Number.isInteger(retryNum) ? retryNum : undefined,
          retryReason: header(request.headers, "x-slack-retry-reason"),
        })
        // Payloads nobody listens to (buttons, shortcuts) are never acked: answer 200 once bolt is done.
        .then(
          () => resolve({ status: 200 }),
          (error: unknown) => {
            this.options.logger.error(`Slack HTTP event failed: ${error instanceof Error ? error.message : String(error)}`);
            resolve(text(500, "event processing failed"));
          },
        );
    });
  }
}

/** JSON for the Events API; `payload=<json>` forms for interactivity; plain forms for slash commands. */
function parseBody(rawBody: Buffer, contentType: string | undefined): Record<string, unknown> {
  const bodyText = rawBody.toString("utf8");
  if (contentType?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(bodyText);
    const payload = form.get("payload");
    return payload === null ? Object.fromEntries(form) : parseJsonObject(payload);
  }
  return parseJsonObject(bodyText);
}

function parseJsonObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  return value as Record<string, unknown>;
}

function header(headers: RouteRequest["headers"], name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function text(status: number, message: string): RouteResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8" }, body: message };
}

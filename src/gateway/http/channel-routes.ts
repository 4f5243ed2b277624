import type { FastifyInstance } from "fastify";
import type { ChannelManager } from "../../channels/channel-manager.js";

const CHANNEL_BODY_LIMIT = 1024 * 1024;

/**
 * Routes channel plugins serve on the gateway's port (Slack `/slack/events`, the Telegram
 * webhook). Paths come from config and accounts start after the HTTP app is sealed, so one
 * catch-all looks the route up per request. The bodies stay raw bytes: Slack's signature is
 * computed over the exact bytes sent. Unknown paths get the normal 404.
 */
export function registerChannelRoutes(app: FastifyInstance, channels: () => ChannelManager | undefined): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: CHANNEL_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.route({
      method: ["GET", "POST"],
      url: "/*",
      handler: async (request, reply) => {
        const urlPath = request.url.split("?")[0] ?? "/";
        const route = channels()?.httpRoute(request.method, urlPath);
        if (!route) return reply.callNotFound();
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await route.handler({ headers: request.headers, rawBody });
        reply.code(result.status);
        for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
        return reply.send(result.body ?? "");
      },
    });
  });
}

import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { ChatCompletionRequest } from "./chat-request-schema.js";
import { openAiBodyValidator } from "./openai-body-validator.js";
import { chatCompletionsHandler } from "./chat-completions-route.js";
import { ResponseSessions } from "./response-sessions.js";
import { responsesHandler } from "./responses-route.js";
import { embeddingsHandler } from "./embeddings-route.js";
import { openAiErrorHandler } from "./fastify-error-mapper.js";
import { getModelHandler, listModelsHandler } from "./models-routes.js";
import { methodNotAllowed, openAiRequestGuard, type GuardRouteConfig } from "./request-guard.js";
import { sendOpenAiError } from "./openai-errors.js";
import type { OpenAiRouteDeps } from "./types.js";

/** Chat completions accept bodies up to 20 MB (long histories). */
export const CHAT_COMPLETIONS_BODY_LIMIT = 20 * 1024 * 1024;

/**
 * The OpenAI-compatible surface: `POST /v1/chat/completions`, `POST /v1/responses`,
 * `POST /v1/embeddings`, `GET /v1/models`, `GET /v1/models/{id}`. Everything lives in one
 * encapsulated plugin so its hooks and error handler touch no other gateway route. The body limit is set per route; the app's default
 * stays as it is.
 */
export function registerOpenAiRoutes(app: FastifyInstance, deps: OpenAiRouteDeps): void {
  app.register(async (scope) => {
    scope.addHook("onRequest", openAiRequestGuard(deps));
    scope.setErrorHandler(openAiErrorHandler(deps));

    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(
        "/v1/chat/completions",
        { bodyLimit: deps.bodyLimitBytes ?? CHAT_COMPLETIONS_BODY_LIMIT, schema: { body: ChatCompletionRequest }, validatorCompiler: openAiBodyValidator },
        chatCompletionsHandler(deps),
      );
    // Opened with the first /v1/responses request: a gateway nobody calls there never reads the file.
    let responseSessions: ResponseSessions | undefined;
    const responses = responsesHandler(deps, () => (responseSessions ??= new ResponseSessions(deps.responseSessionsFile)));
    scope.addHook("onClose", async () => responseSessions?.close());
    scope.post("/v1/responses", { bodyLimit: deps.bodyLimitBytes ?? CHAT_COMPLETIONS_BODY_LIMIT }, responses);
    scope.post("/v1/embeddings", { bodyLimit: deps.bodyLimitBytes ?? CHAT_COMPLETIONS_BODY_LIMIT }, embeddingsHandler(deps));
    scope.get("/v1/models", listModelsHandler(deps));
    scope.get("/v1/models/*", getModelHandler(deps));

    const allowPost: GuardRouteConfig = { allow: "POST" };
    const allowGet: GuardRouteConfig = { allow: "GET, HEAD" };
    scope.route({ method: ["GET", "PUT", "PATCH", "DELETE"], url: "/v1/chat/completions", config: allowPost, handler: methodNotAllowed });
    scope.route({ method: ["GET", "PUT", "PATCH", "DELETE"], url: "/v1/responses", config: allowPost, handler: methodNotAllowed });
    scope.route({ method: ["GET", "PUT", "PATCH", "DELETE"], url: "/v1/embeddings", config: allowPost, handler: methodNotAllowed });
    scope.route({ method: ["POST", "PUT", "PATCH", "DELETE"], url: "/v1/models", config: allowGet, handler: methodNotAllowed });
    scope.route({ method: ["POST", "PUT", "PATCH", "DELETE"], url: "/v1/models/*", config: allowGet, handler: methodNotAllowed });
    // Any other /v1 path: the OpenAI error shape the SDKs read, not the web server's default.
    scope.route({
      method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      url: "/v1/*",
      handler: (req, reply) => sendOpenAiError(reply, 404, `Unknown endpoint: ${req.method} ${req.url.split("?", 1)[0]}`, "invalid_request_error", { code: "unknown_url" }),
    });
  });
}

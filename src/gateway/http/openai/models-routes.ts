import type { FastifyReply, FastifyRequest } from "fastify";
import { sendOpenAiError } from "./openai-errors.js";
import type { OpenAiAgentInfo, OpenAiRouteDeps } from "./types.js";

/**
 * The model ids a client may send: `openclaw`, the stable `openclaw/default`, and
 * `openclaw/<agentId>` for every top-level agent (see docs/http-api.md). Provider models are not
 * listed: the agent chooses its own, and `x-openclaw-model` overrides it.
 */
export function modelIds(agents: OpenAiAgentInfo[]): string[] {
  return [...new Set(["openclaw", "openclaw/default", ...agents.map((a) => `openclaw/${a.id}`)])];
}

function modelObject(id: string) {
  return { id, object: "model", created: 0, owned_by: "openclaw", permission: [] };
}

export function listModelsHandler(deps: OpenAiRouteDeps) {
  return async () => ({ object: "list", data: modelIds(deps.agents()).map(modelObject) });
}

/**
 * `GET /v1/models/{id}`. Ids contain a slash, which clients send either raw
 * (`/v1/models/openclaw/main`) or encoded (`openclaw%2Fmain`); the wildcard route takes both,
 * and fastify has already decoded the wildcard.
 */
export function getModelHandler(deps: OpenAiRouteDeps) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const raw = (req.params as Record<string, string | undefined>)["*"] ?? "";
    const wanted = raw.toLowerCase();
    const id = modelIds(deps.agents()).find((m) => m.toLowerCase() === wanted);
    if (id) return modelObject(id);
    const shown = wanted.length > 80 ? `${wanted.slice(0, 80)}…` : wanted;
    return sendOpenAiError(reply, 404, `The model '${shown}' does not exist`, "invalid_request_error", {
      param: "model",
      code: "model_not_found",
    });
  };
}

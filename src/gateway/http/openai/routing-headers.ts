import type { IncomingHttpHeaders } from "node:http";
import { OpenAiRequestError } from "./openai-errors.js";

export interface RoutingHeaders {
  /** `x-openclaw-agent-id` (alias `x-openclaw-agent`). */
  agentId?: string;
  /** `x-openclaw-session-key`, validated later together with the other session inputs. */
  sessionKey?: string;
  /** `x-openclaw-model`: backend model for the chosen agent. */
  model?: string;
}

const MAX_MODEL_REF = 256;

/**
 * The `x-openclaw-*` routing headers (see docs/http-api.md, "Routing headers"). A shared-secret
 * bearer is a full operator, so the admin-only `x-openclaw-model` needs no extra scope check here.
 */
export function readRoutingHeaders(headers: IncomingHttpHeaders): RoutingHeaders {
  const agentId = single(headers["x-openclaw-agent-id"]) ?? single(headers["x-openclaw-agent"]);
  const sessionKey = single(headers["x-openclaw-session-key"]);
  const model = single(headers["x-openclaw-model"]);
  if (model !== undefined && (model.length > MAX_MODEL_REF || /[\s\u0000-\u001f\u007f]/.test(model))) {
    throw new OpenAiRequestError("Invalid x-openclaw-model: expected <provider>/<model> without spaces.", "x-openclaw-model");
  }
  return {
    ...(agentId ? { agentId } : {}),
    ...(sessionKey ? { sessionKey } : {}),
    ...(model ? { model } : {}),
  };
}

/** Node joins repeated custom headers with ", "; an array only appears for set-cookie, but be safe. */
function single(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  const trimmed = v?.trim();
  return trimmed ? trimmed : undefined;
}

import { OpenAiRequestError } from "./openai-errors.js";
import type { OpenAiAgentInfo } from "./types.js";

const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
/** `openclaw/<id>`, `openclaw:<id>` and the compatibility alias `agent:<id>` (see docs/http-api.md). */
const AGENT_MODEL = /^(?:openclaw[/:]|agent:)(.*)$/i;

export function defaultAgent(agents: OpenAiAgentInfo[]): string {
  return (agents.find((a) => a.isDefault) ?? agents[0])?.id ?? "main";
}

/**
 * Which agent answers. The `x-openclaw-agent-id` header wins over `model`, so a client with a fixed
 * model name can still pick an agent. `openclaw` / `openclaw/default` mean the default agent; a
 * `model` that names no agent at all (say `gpt-4o` from a client with a hard-coded model) also
 * falls back to the default agent, as upstream does; but naming an agent that does not exist is an
 * error, never a silent reroute.
 */
export function resolveAgentId(model: string | undefined, headerAgent: string | undefined, agents: OpenAiAgentInfo[]): string {
  if (headerAgent !== undefined && headerAgent.trim() !== "") return knownAgent(headerAgent.trim(), agents, "x-openclaw-agent-id");
  if (model === undefined) return defaultAgent(agents);
  const name = model.trim();
  if (/^openclaw$/i.test(name)) return defaultAgent(agents);
  const named = AGENT_MODEL.exec(name)?.[1];
  if (named === undefined) return defaultAgent(agents);
  if (named.toLowerCase() === "default") return defaultAgent(agents);
  return knownAgent(named, agents, "model");
}

function knownAgent(raw: string, agents: OpenAiAgentInfo[], param: string): string {
  const id = raw.toLowerCase();
  if (AGENT_ID.test(id) && agents.some((a) => a.id.toLowerCase() === id)) return id;
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  throw new OpenAiRequestError(`The agent '${shown}' does not exist. GET /v1/models lists the available agents.`, param, "model_not_found");
}

import { agentModelRef, resolveAgentConfig } from "../../agents/agent-config.js";
import { describeImage, imageDescriptionPlan, type MediaFile } from "../../agents/media/index.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { resolveModel } from "../../models/index.js";

/**
 * A description of a message's first image for an agent whose model takes no images (its
 * session's chosen model, else the agent's), as `tools.media` or `agents.defaults.imageModel` set
 * it up; undefined when the model sees the image itself, nothing is set up, or every attempt
 * failed (logged with each attempt's reason; the message then goes on with its file line only).
 */
export async function imageDescription(params: {
  images: readonly MediaFile[];
  config: OpenClawConfig;
  agentId: string;
  sessionModel?: string;
  logger: Logger;
  logFields: Record<string, unknown>;
}): Promise<string | undefined> {
  const file = params.images[0];
  if (!file) return undefined;
  const attempts = imageDescriptionPlan(params.config);
  if (attempts.length === 0) return undefined;
  const ref = params.sessionModel ?? agentModelRef(params.config, resolveAgentConfig(params.config, params.agentId));
  const model = ref ? resolveModel(ref, params.config, process.env) : undefined;
  if (model?.ok && model.model.input.includes("image")) return undefined;
  const outcome = await describeImage(file, attempts, { config: params.config, env: process.env });
  if (outcome.kind === "failed") {
    params.logger.warn({ ...params.logFields, failures: outcome.failures }, "image not described: every tools.media attempt failed");
    return undefined;
  }
  params.logger.debug({ ...params.logFields, via: outcome.via, chars: outcome.text.length }, "image described");
  return outcome.text;
}

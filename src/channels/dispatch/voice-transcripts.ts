import { transcribeAudio, transcriptionPlan, type MediaFile } from "../../agents/media/index.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";

/**
 * The transcript of a message's first audio file, as `tools.media` sets it up, or undefined: no
 * audio, nothing set up, a recording too short to hold speech, or every attempt failed (logged
 * with each attempt's reason; the message then goes on with its file line only).
 */
export async function voiceTranscript(params: {
  audio: readonly MediaFile[];
  config: OpenClawConfig;
  logger: Logger;
  logFields: Record<string, unknown>;
}): Promise<string | undefined> {
  const file = params.audio[0];
  if (!file) return undefined;
  const plan = transcriptionPlan(params.config, process.env);
  if (plan.attempts.length === 0) return undefined;
  const outcome = await transcribeAudio(file, plan.attempts);
  if (outcome.kind === "failed") {
    params.logger.warn({ ...params.logFields, failures: outcome.failures }, "audio not transcribed: every tools.media attempt failed");
    return undefined;
  }
  if (outcome.kind !== "transcribed" || !outcome.text) return undefined;
  params.logger.debug({ ...params.logFields, via: outcome.via, chars: outcome.text.length }, "audio transcribed");
  return outcome.text;
}

/** With `tools.media.audio.echoTranscript` on, the transcript posted back to the chat before the reply, best effort. */
export async function echoTranscript(params: {
  transcript: string;
  config: OpenClawConfig;
  account: ChannelAccount;
  target: OutboundTarget;
  logger: Logger;
  logFields: Record<string, unknown>;
}): Promise<void> {
  const format = transcriptionPlan(params.config, process.env).echoFormat;
  if (!format) return;
  await params.account.send(params.target, { markdown: format.replace("{transcript}", () => params.transcript) }).catch((error: unknown) => {
    params.logger.warn({ ...params.logFields, err: error }, "transcript echo not sent");
  });
}

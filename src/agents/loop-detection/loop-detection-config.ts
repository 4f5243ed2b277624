import { findAgentTools, readRecord, readToolsConfig, type ConfigRecord } from "../policy/policy-config.js";
import type { LoopDetectorOptions } from "./loop-detector-options.js";

export interface LoopDetectionSettings {
  enabled: boolean;
  options: LoopDetectorOptions;
}

/**
 * `tools.loopDetection` with the agent's own `tools.loopDetection` overriding it key by key:
 * `{ enabled, maxConsecutiveCalls, maxSameFileReads }`. On unless disabled: OpenClaw makes it
 * opt-in, but runaway tool loops burning tokens are a top complaint of its users, and the caps
 * sit far enough above the reminders that a working run is not stopped.
 */
export function loopDetectionFromConfig(config: unknown, agentId: string): LoopDetectionSettings {
  const global = readRecord(readToolsConfig(config), "loopDetection");
  const own = readRecord(findAgentTools(config, agentId)?.tools, "loopDetection");
  const pick = <T>(key: string, valid: (value: unknown) => value is T): T | undefined => {
    for (const source of [own, global] as (ConfigRecord | undefined)[]) {
      const value = source?.[key];
      if (valid(value)) return value;
    }
    return undefined;
  };
  const repeatThreshold = pick("maxConsecutiveCalls", isPositiveInteger);
  const readThreshold = pick("maxSameFileReads", isPositiveInteger);
  return {
    enabled: pick("enabled", isBoolean) ?? true,
    options: {
      ...(repeatThreshold !== undefined ? { repeatThreshold } : {}),
      ...(readThreshold !== undefined ? { readThreshold } : {}),
    },
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === "boolean";
}

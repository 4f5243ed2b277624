import type { MemoryGetOutcome, MemorySearchOptions, MemorySearchResponse } from "../../memory/index.js";
import type { ToolServices } from "../types.js";

/**
 * What `memory_search` and `memory_get` act through: the gateway's MemoryService provides it
 * as `ctx.services.memory`. Without it (a local one-off run) the memory tools are not offered.
 */
export interface MemoryToolHost {
  /** False when `memory.search.enabled` is off: the tools are then not offered. */
  enabled(): boolean;
  /** Session start: open the agent's index and sync it in the background; never waits. */
  prepare(agentId: string): void;
  search(agentId: string, query: string, options: MemorySearchOptions): Promise<MemorySearchResponse>;
  get(agentId: string, path: string, from?: number, lines?: number): Promise<MemoryGetOutcome>;
}

export function getMemoryToolHost(services: ToolServices): MemoryToolHost | undefined {
  const host = services.memory as Partial<MemoryToolHost> | undefined;
  return host && typeof host.search === "function" && typeof host.get === "function" && typeof host.enabled === "function" ? (host as MemoryToolHost) : undefined;
}

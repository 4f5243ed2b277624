import type { StabilityEvent, StabilitySnapshot, StabilitySummary } from "./stability-event.js";
import { EXPORTER_STATE_CAPACITY, type StabilityRecorder } from "./stability-recorder.js";

/** Events answered when no `limit` is given (the RPC's default; the CLI asks for 25). */
export const DEFAULT_STABILITY_LIMIT = 50;
export const MAX_STABILITY_LIMIT = 1_000;

export interface StabilityQuery {
  limit: number;
  type?: string;
  sinceSeq?: number;
}

/**
 * `limit` (1-1000), `type` and `sinceSeq` as OpenClaw takes them: numbers or digit strings, empty
 * meaning unset. Throws an error naming the field and what it must be.
 */
export function normalizeStabilityQuery(input: { limit?: unknown; type?: unknown; sinceSeq?: unknown }, defaultLimit = DEFAULT_STABILITY_LIMIT): StabilityQuery {
  const limit = optionalWholeNumber(input.limit, "limit") ?? defaultLimit;
  if (limit < 1 || limit > MAX_STABILITY_LIMIT) throw new Error(`limit must be between 1 and ${MAX_STABILITY_LIMIT} (got ${limit})`);
  const sinceSeq = optionalWholeNumber(input.sinceSeq, "sinceSeq");
  const type = optionalType(input.type);
  return { limit, ...(type ? { type } : {}), ...(sinceSeq !== undefined ? { sinceSeq } : {}) };
}

function optionalWholeNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof parsed !== "number" || !Number.isSafeInteger(parsed) || parsed < 0) throw new Error(`${field} must be a non-negative integer`);
  return parsed;
}

function optionalType(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || value.trim() === "") throw new Error("type must be a non-empty string (an event type such as payload.large)");
  return value.trim();
}

/**
 * The recorder's events as a snapshot: those matching `type` and `sinceSeq`, the last `limit` of
 * them listed, the summary over all that matched. `type: telemetry.exporter` reads the exporters'
 * latest states instead of the ring.
 */
export function stabilitySnapshot(recorder: StabilityRecorder, query: StabilityQuery): StabilitySnapshot {
  const exporters = query.type === "telemetry.exporter";
  const source = exporters ? recorder.exporterEvents() : recorder.events();
  return {
    generatedAt: new Date().toISOString(),
    capacity: exporters ? EXPORTER_STATE_CAPACITY : recorder.capacity,
    dropped: exporters ? recorder.exporterDropped : recorder.dropped,
    ...selectEvents(source, query),
  };
}

/** A stored snapshot (a bundle's) narrowed by a query; the original is left as it was. */
export function selectFromSnapshot(snapshot: StabilitySnapshot, query: StabilityQuery): StabilitySnapshot {
  return { ...snapshot, ...selectEvents(snapshot.events, query) };
}

function selectEvents(events: readonly StabilityEvent[], query: StabilityQuery): Pick<StabilitySnapshot, "count" | "firstSeq" | "lastSeq" | "events" | "summary"> {
  const matched = events.filter((e) => (!query.type || e.type === query.type) && (query.sinceSeq === undefined || e.seq > query.sinceSeq));
  return {
    count: matched.length,
    ...(matched.length > 0 ? { firstSeq: matched[0]!.seq, lastSeq: matched[matched.length - 1]!.seq } : {}),
    events: matched.slice(Math.max(0, matched.length - query.limit)),
    summary: summarize(matched),
  };
}

/** Counts by type, the memory readings' latest and peaks, and the oversized payloads by surface. */
function summarize(events: readonly StabilityEvent[]): StabilitySummary {
  const byType: Record<string, number> = {};
  let memory: StabilitySummary["memory"];
  let pressureCount = 0;
  const payloadLarge = { count: 0, rejected: 0, truncated: 0, chunked: 0, bySurface: {} as Record<string, number> };
  for (const event of events) {
    byType[event.type] = (byType[event.type] ?? 0) + 1;
    if (event.type === "diagnostic.memory.pressure") pressureCount += 1;
    if (event.memory) {
      memory = {
        latest: event.memory,
        maxRssBytes: Math.max(memory?.maxRssBytes ?? 0, event.memory.rssBytes),
        maxHeapUsedBytes: Math.max(memory?.maxHeapUsedBytes ?? 0, event.memory.heapUsedBytes),
        pressureCount: 0,
      };
    }
    if (event.type === "payload.large") {
      payloadLarge.count += 1;
      if (event.action === "rejected" || event.action === "truncated" || event.action === "chunked") payloadLarge[event.action] += 1;
      const surface = event.surface ?? "unknown";
      payloadLarge.bySurface[surface] = (payloadLarge.bySurface[surface] ?? 0) + 1;
    }
  }
  if (memory) memory.pressureCount = pressureCount;
  else if (pressureCount > 0) memory = { pressureCount };
  return { byType, ...(memory ? { memory } : {}), ...(payloadLarge.count > 0 ? { payloadLarge } : {}) };
}

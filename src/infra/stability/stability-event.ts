/**
 * One entry of the stability stream (OpenClaw's record shape): a sequence number, a time, a type,
 * and only names, counts, sizes and outcomes. Never chat text, bodies, tool output or credentials:
 * every field here is a code or a number, so nothing a user said can land in one.
 */
export interface StabilityEvent {
  seq: number;
  ts: number;
  type: string;
  level?: "info" | "warning" | "critical";
  action?: string;
  outcome?: string;
  surface?: string;
  channel?: string;
  source?: string;
  target?: string;
  transport?: string;
  mode?: string;
  reason?: string;
  deliveryKind?: string;
  bytes?: number;
  limitBytes?: number;
  count?: number;
  durationMs?: number;
  memory?: StabilityMemory;
}

/** A process memory reading, in bytes. */
export interface StabilityMemory {
  rssBytes: number;
  heapTotalBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
}

/** The fields a caller fills; the recorder adds `seq` and `ts`. */
export type StabilityFields = Omit<StabilityEvent, "seq" | "ts" | "type">;

/** What `diagnostics.stability` answers and a bundle keeps: the selected events and a summary of all that matched. */
export interface StabilitySnapshot {
  generatedAt: string;
  capacity: number;
  count: number;
  dropped: number;
  firstSeq?: number;
  lastSeq?: number;
  events: StabilityEvent[];
  summary: StabilitySummary;
}

export interface StabilitySummary {
  byType: Record<string, number>;
  memory?: { latest?: StabilityMemory; maxRssBytes?: number; maxHeapUsedBytes?: number; pressureCount: number };
  payloadLarge?: { count: number; rejected: number; truncated: number; chunked: number; bySurface: Record<string, number> };
}

/** Codes only: a value that could be free text (an error message, a name with spaces) is dropped, not recorded. */
const SAFE_CODE = /^[A-Za-z0-9_.:-]{1,120}$/u;

export function safeCode(value: string | undefined): string | undefined {
  return value !== undefined && SAFE_CODE.test(value) ? value : undefined;
}

import { safeCode, type StabilityEvent, type StabilityFields, type StabilityMemory } from "./stability-event.js";

/** Events the ring keeps; the oldest is overwritten past this (OpenClaw's default). */
export const STABILITY_CAPACITY = 1_000;
/** Exporter states kept (one per exporter, signal and transport); the least recently changed goes first. */
export const EXPORTER_STATE_CAPACITY = 16;

export type ExporterSignal = "traces" | "metrics" | "logs";
export type ExporterStatus = "started" | "failure" | "recovered" | "dropped";

/**
 * The process's stability stream: a fixed ring of payload-free events, plus the latest state of
 * each telemetry exporter (a separate table, so a busy gateway's events never push an exporter's
 * health out). Recording is a few field writes into a preallocated slot array; nothing records on
 * a turn's path. Off (`diagnostics.enabled: false`): `record` returns at once and the ring keeps
 * what it had.
 */
export class StabilityRecorder {
  private readonly slots: (StabilityEvent | undefined)[];
  private next = 0;
  private size = 0;
  private seq = 0;
  private droppedCount = 0;
  private exporterSeq = 0;
  private exporterDroppedCount = 0;
  private readonly exporters = new Map<string, StabilityEvent>();
  enabled = true;

  constructor(readonly capacity = STABILITY_CAPACITY) {
    this.slots = new Array(capacity).fill(undefined);
  }

  record(type: string, fields: StabilityFields = {}): void {
    if (!this.enabled) return;
    this.seq += 1;
    this.slots[this.next] = { seq: this.seq, ts: Date.now(), type, ...fields };
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size += 1;
    else this.droppedCount += 1;
  }

  /** A memory reading of this process (`diagnostic.memory.sample`). */
  recordMemorySample(): void {
    if (!this.enabled) return;
    this.record("diagnostic.memory.sample", { memory: memoryNow() });
  }

  /** A telemetry exporter's health change (`telemetry.exporter`): kept as that exporter's latest state. */
  recordExporter(update: {
    exporter: string;
    signal: ExporterSignal;
    status: ExporterStatus;
    transport?: string;
    mode?: "configured" | "default_endpoint";
    reason?: string;
  }): void {
    if (!this.enabled) return;
    const source = safeCode(update.exporter);
    if (!source) return;
    const transport = safeCode(update.transport);
    const key = `${source}\u0000${update.signal}\u0000${transport ?? "unknown"}`;
    if (update.status === "dropped") {
      this.exporters.delete(key);
      return;
    }
    this.exporterSeq += 1;
    const reason = safeCode(update.reason);
    const event: StabilityEvent = {
      seq: this.exporterSeq,
      ts: Date.now(),
      type: "telemetry.exporter",
      source,
      target: update.signal,
      outcome: update.status,
      ...(transport ? { transport } : {}),
      ...(update.mode ? { mode: update.mode } : {}),
      ...(reason ? { reason } : {}),
    };
    if (!this.exporters.has(key) && this.exporters.size >= EXPORTER_STATE_CAPACITY) {
      const oldest = this.exporters.keys().next().value;
      if (oldest !== undefined) {
        this.exporters.delete(oldest);
        this.exporterDroppedCount += 1;
      }
    }
    this.exporters.delete(key);
    this.exporters.set(key, event);
  }

  /** The ring's events, oldest first. */
  events(): StabilityEvent[] {
    const out: StabilityEvent[] = [];
    const start = this.size < this.capacity ? 0 : this.next;
    for (let i = 0; i < this.size; i += 1) {
      const event = this.slots[(start + i) % this.capacity];
      if (event) out.push(event);
    }
    return out;
  }

  /** The exporters' latest states, oldest change first. */
  exporterEvents(): StabilityEvent[] {
    return [...this.exporters.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Events overwritten since the process started. */
  get dropped(): number {
    return this.droppedCount;
  }

  get exporterDropped(): number {
    return this.exporterDroppedCount;
  }
}

function memoryNow(): StabilityMemory {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rssBytes: rss, heapTotalBytes: heapTotal, heapUsedBytes: heapUsed, externalBytes: external, arrayBuffersBytes: arrayBuffers };
}

/** The one recorder of this process: every layer records into it, the gateway answers from it, a dying process persists it. */
export const stability = new StabilityRecorder();

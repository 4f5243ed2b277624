import type { StabilityRecorder } from "./stability-recorder.js";

/** How often the process's memory is read into the stability stream (OpenClaw's heartbeat). */
export const MEMORY_SAMPLE_INTERVAL_MS = 30_000;

/**
 * Records one memory reading now and one every `intervalMs`; the timer never keeps the process
 * alive. Returns the stop.
 */
export function startMemorySampler(recorder: StabilityRecorder, intervalMs = MEMORY_SAMPLE_INTERVAL_MS): () => void {
  recorder.recordMemorySample();
  const timer = setInterval(() => recorder.recordMemorySample(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

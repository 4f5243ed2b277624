// The costly part of a first Intl call: ICU finding the host's time zone and loading its data.
const FIRST_INTL_CALL = "Intl.DateTimeFormat().resolvedOptions().timeZone;";

/**
 * ICU, the library behind `Intl`, sets itself up on first use, once per process rather than per
 * thread, and that first use is slow (see docs/architecture.md, "Measured costs"). Every turn needs
 * it (the system prompt states the local time and zone), so a short-lived thread pays that cost on
 * the other core while the main thread is busy loading the gateway; the main thread's first Intl
 * call then finds ICU ready. Best effort: if the thread cannot start, Intl simply sets itself up on
 * first use, as it would anyway.
 */
export function warmIntlOffThread(): void {
  try {
    // Loaded here, not at the top: the module is imported before the port opens, the thread starts after.
    const { Worker } = process.getBuiltinModule("node:worker_threads");
    const worker = new Worker(FIRST_INTL_CALL, { eval: true });
    worker.on("error", () => {});
    worker.unref();
  } catch {
    // Threads unavailable (resource limits): nothing is lost but the head start.
  }
}

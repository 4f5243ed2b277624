import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { stability } from "../infra/stability/stability-recorder.js";

type ExportCallback = Parameters<SpanExporter["export"]>[1];

/** The name the trace exporter's health has in the stability stream (OpenClaw's OTel exporter's). */
const EXPORTER = "diagnostics-otel";

/**
 * An OTLP span exporter that reports its health to the stability stream as `telemetry.exporter`:
 * `started` when built, `failure` when an export's final result (after the exporter's own retries)
 * is a failure, `recovered` at the first success after one. Only transitions are recorded; the
 * endpoint, headers and error text never are.
 */
export class HealthReportingSpanExporter implements SpanExporter {
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly transport: "otlp-http-protobuf" | "otlp-http-json",
  ) {
    this.report("started");
  }

  export(spans: Parameters<SpanExporter["export"]>[0], done: ExportCallback): void {
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code !== 0 && !this.failing) {
        this.failing = true;
        this.report("failure", "export_failed");
      } else if (result.code === 0 && this.failing) {
        this.failing = false;
        this.report("recovered", "export_failed");
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private report(status: "started" | "failure" | "recovered", reason?: string): void {
    stability.recordExporter({ exporter: EXPORTER, signal: "traces", status, transport: this.transport, mode: "configured", ...(reason ? { reason } : {}) });
  }
}

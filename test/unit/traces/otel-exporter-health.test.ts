import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { stability } from "../../../src/infra/stability/stability-recorder.js";
import { HealthReportingSpanExporter } from "../../../src/traces/otel-exporter-health.js";

/** A span exporter whose next results are scripted: 0 succeeds, 1 fails. */
function scriptedExporter(codes: number[]): SpanExporter {
  return {
    export: (_spans, done) => done({ code: codes.shift() ?? 0 }),
    shutdown: () => Promise.resolve(),
  };
}

function exporterState() {
  return stability.exporterEvents().find((e) => e.source === "diagnostics-otel" && e.transport === "otlp-http-json");
}

describe("the OTLP exporter's health in the stability stream", () => {
  it("started, then failure once however many exports fail, then recovered at the next success; results pass through", () => {
    const results: number[] = [];
    const exporter = new HealthReportingSpanExporter(scriptedExporter([1, 1, 0, 0]), "otlp-http-json");
    expect(exporterState()).toMatchObject({ outcome: "started", target: "traces", mode: "configured" });
    const send = () => exporter.export([], (result) => results.push(result.code));
    send();
    const failure = exporterState()!;
    expect(failure).toMatchObject({ outcome: "failure", reason: "export_failed" });
    send();
    expect(exporterState()!.seq).toBe(failure.seq);
    send();
    expect(exporterState()).toMatchObject({ outcome: "recovered", reason: "export_failed" });
    const recovered = exporterState()!.seq;
    send();
    expect(exporterState()!.seq).toBe(recovered);
    expect(results).toEqual([1, 1, 0, 0]);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { OtelTraceExporter } from "../../../src/traces/otel-export.js";
import type { TraceRecord } from "../../../src/traces/types.js";
import { startFakeOtlpCollector, type FakeOtlpCollector } from "../../fakes/otlp-collector.js";

const collectors: FakeOtlpCollector[] = [];
afterEach(async () => {
  for (const c of collectors.splice(0)) await c.close();
});

const record = (runId: string): TraceRecord => ({
  runId,
  sessionKey: "agent:main:main",
  agentId: "main",
  source: "chat",
  startedAt: 1_000,
  endedAt: 2_000,
  durationMs: 1_000,
  outcome: "ok",
  input: ["hi"],
  modelCalls: [{ provider: "fake", model: "m", startedAt: 1_100, latencyMs: 100, failover: [] }],
  toolCalls: [],
  thinking: [],
  output: "hello",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  compactions: [],
});

async function exported(sampleRate: number, runs: number): Promise<number> {
  const collector = await startFakeOtlpCollector();
  collectors.push(collector);
  const exporter = await OtelTraceExporter.create({
    url: collector.endpoint,
    protocol: "http/protobuf",
    headers: {},
    serviceName: "test",
    sampleRate,
    flushIntervalMs: 1_000,
    captureContent: false,
    version: "0",
  });
  for (let i = 0; i < runs; i++) exporter.export(record(`run-${i}`));
  await exporter.flush();
  await exporter.shutdown();
  return collector.spans.length;
}

describe("diagnostics.otel.sampleRate", () => {
  it("0 exports no run, 1 every run with its model call: a run is kept or dropped whole", async () => {
    expect(await exported(0, 10)).toBe(0);
    expect(await exported(1, 10)).toBe(20);
  });
});

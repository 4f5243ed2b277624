import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLatestStabilityBundle, readStabilityBundle, STABILITY_BUNDLES_KEPT, writeStabilityBundle } from "../../../src/infra/stability/stability-bundle.js";
import { EXPORTER_STATE_CAPACITY, StabilityRecorder } from "../../../src/infra/stability/stability-recorder.js";
import { normalizeStabilityQuery, selectFromSnapshot, stabilitySnapshot } from "../../../src/infra/stability/stability-snapshot.js";
import { makeTempDir } from "../../helpers/gateway-process.js";

describe("the stability recorder", () => {
  it("keeps the last `capacity` events in order and counts the overwritten ones", () => {
    const recorder = new StabilityRecorder(3);
    for (let i = 0; i < 5; i += 1) recorder.record("payload.large", { bytes: i });
    expect(recorder.events().map((e) => [e.seq, e.bytes])).toEqual([
      [3, 2],
      [4, 3],
      [5, 4],
    ]);
    expect(recorder.dropped).toBe(2);
  });

  it("records nothing while off, and keeps what it had", () => {
    const recorder = new StabilityRecorder(10);
    recorder.record("message.received", { channel: "telegram" });
    recorder.enabled = false;
    recorder.record("message.received", { channel: "telegram" });
    recorder.recordMemorySample();
    recorder.recordExporter({ exporter: "diagnostics-otel", signal: "traces", status: "started" });
    expect(recorder.events()).toHaveLength(1);
    expect(recorder.exporterEvents()).toHaveLength(0);
  });

  it("keeps one state per exporter, signal and transport, the latest; `dropped` forgets it; past 16 the least recently changed goes", () => {
    const recorder = new StabilityRecorder(10);
    recorder.recordExporter({ exporter: "diagnostics-otel", signal: "traces", status: "started", transport: "otlp-http-protobuf" });
    recorder.recordExporter({ exporter: "diagnostics-otel", signal: "traces", status: "failure", transport: "otlp-http-protobuf", reason: "export_failed" });
    expect(recorder.exporterEvents()).toEqual([expect.objectContaining({ outcome: "failure", reason: "export_failed", seq: 2 })]);
    recorder.recordExporter({ exporter: "diagnostics-otel", signal: "traces", status: "dropped", transport: "otlp-http-protobuf" });
    expect(recorder.exporterEvents()).toEqual([]);
    for (let i = 0; i <= EXPORTER_STATE_CAPACITY; i += 1) recorder.recordExporter({ exporter: `exp-${i}`, signal: "logs", status: "started" });
    expect(recorder.exporterEvents()).toHaveLength(EXPORTER_STATE_CAPACITY);
    expect(recorder.exporterEvents()[0]!.source).toBe("exp-1");
    expect(recorder.exporterDropped).toBe(1);
    // A name that is not a code (free text) is never recorded.
    recorder.recordExporter({ exporter: "my exporter: https://user:pw@host", signal: "logs", status: "started" });
    expect(recorder.exporterEvents().some((e) => e.source?.includes("pw"))).toBe(false);
  });
});

describe("stability queries", () => {
  it("takes numbers or digit strings, empty as unset, and names what is wrong", () => {
    expect(normalizeStabilityQuery({})).toEqual({ limit: 50 });
    expect(normalizeStabilityQuery({ limit: "7", sinceSeq: 3, type: " payload.large " })).toEqual({ limit: 7, sinceSeq: 3, type: "payload.large" });
    expect(normalizeStabilityQuery({ limit: "", type: "" }, 25)).toEqual({ limit: 25 });
    expect(() => normalizeStabilityQuery({ limit: 0 })).toThrow("limit must be between 1 and 1000");
    expect(() => normalizeStabilityQuery({ limit: "ten" })).toThrow("limit must be a non-negative integer");
    expect(() => normalizeStabilityQuery({ sinceSeq: -1 })).toThrow("sinceSeq must be a non-negative integer");
    expect(() => normalizeStabilityQuery({ type: 5 })).toThrow("type must be a non-empty string");
  });

  it("lists the last `limit` matches and summarizes all of them", () => {
    const recorder = new StabilityRecorder(20);
    recorder.recordMemorySample();
    for (const surface of ["gateway.ws", "gateway.ws", "gateway.http.openai"]) recorder.record("payload.large", { surface, action: "rejected" });
    const snap = stabilitySnapshot(recorder, { limit: 1, type: "payload.large" });
    expect(snap).toMatchObject({ capacity: 20, count: 3, firstSeq: 2, lastSeq: 4 });
    expect(snap.events.map((e) => e.seq)).toEqual([4]);
    expect(snap.summary).toEqual({
      byType: { "payload.large": 3 },
      payloadLarge: { count: 3, rejected: 3, truncated: 0, chunked: 0, bySurface: { "gateway.ws": 2, "gateway.http.openai": 1 } },
    });
    const all = stabilitySnapshot(recorder, { limit: 50 });
    expect(all.summary.memory).toMatchObject({ pressureCount: 0, latest: { rssBytes: expect.any(Number) } });
    expect(selectFromSnapshot(all, { limit: 50, sinceSeq: 3 }).events.map((e) => e.seq)).toEqual([4]);
    expect(all.events).toHaveLength(4);
  });
});

describe("stability bundles", () => {
  it("writes nothing without events; keeps the newest 20; reads them back; refuses what is not a bundle", () => {
    const stateDir = makeTempDir();
    const recorder = new StabilityRecorder(10);
    expect(writeStabilityBundle(recorder, stateDir, "gateway.fatal")).toBeUndefined();
    expect(readLatestStabilityBundle(stateDir)).toMatchObject({ status: "missing", dir: path.join(stateDir, "logs", "stability") });
    recorder.record("message.received", { channel: "telegram" });
    const error = Object.assign(new Error("token sk-secret-value leaked"), { code: "ECONNRESET" });
    const first = writeStabilityBundle(recorder, stateDir, "gateway.fatal", error)!;
    const dir = path.join(stateDir, "logs", "stability");
    // Older bundles of earlier processes, a minute apart, the oldest first.
    const older = Array.from({ length: STABILITY_BUNDLES_KEPT + 1 }, (_, i) => path.join(dir, `openclaw-stability-older-${i}.json`));
    older.forEach((file, i) => {
      fs.copyFileSync(first, file);
      const at = new Date(Date.now() - (older.length - i) * 60_000);
      fs.utimesSync(file, at, at);
    });
    fs.rmSync(first);
    const file = writeStabilityBundle(recorder, stateDir, "gateway.fatal", error)!;
    const kept = fs.readdirSync(dir).sort();
    expect(kept).toHaveLength(STABILITY_BUNDLES_KEPT);
    expect(kept).toContain(path.basename(file));
    // The two oldest went.
    expect(kept).not.toContain("openclaw-stability-older-0.json");
    expect(kept).not.toContain("openclaw-stability-older-1.json");
    const latest = readLatestStabilityBundle(stateDir);
    expect(latest).toMatchObject({ status: "found", path: file, bundle: { version: 1, reason: "gateway.fatal", error: { name: "Error", code: "ECONNRESET" } } });
    expect(fs.readFileSync(file, "utf8")).not.toContain("sk-secret-value");
    const notBundle = path.join(dir, "other.json");
    fs.writeFileSync(notBundle, '{"version": 2}');
    expect(readStabilityBundle(notBundle)).toMatchObject({ status: "failed", error: expect.stringContaining("version 2, expected 1") });
    fs.writeFileSync(notBundle, "{");
    expect(readStabilityBundle(notBundle)).toMatchObject({ status: "failed", error: expect.stringContaining("not valid JSON") });
  });
});

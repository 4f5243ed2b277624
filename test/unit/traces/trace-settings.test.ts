import { describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import { traceSettings, tracesUrlOf } from "../../../src/traces/settings.js";

const config = (diagnostics: Record<string, unknown>) => applyDefaults({ diagnostics } as never);

describe("trace export settings (diagnostics.otel)", () => {
  it("the endpoint is a collector base: /v1/traces is added, or put in place of another signal's path", () => {
    expect(tracesUrlOf("http://c:4318")).toBe("http://c:4318/v1/traces");
    expect(tracesUrlOf("https://ingest.example.com/otlp/")).toBe("https://ingest.example.com/otlp/v1/traces");
    expect(tracesUrlOf("http://c:4318/v1/traces")).toBe("http://c:4318/v1/traces");
    expect(tracesUrlOf("http://c:4318/v1/metrics")).toBe("http://c:4318/v1/traces");
  });

  it("defaults: protobuf, every run, batched a second, no content, service openclaw; tracesEndpoint is exact", () => {
    expect(traceSettings(config({ otel: { endpoint: "http://c:4318" } }), {}).otel).toEqual({
      url: "http://c:4318/v1/traces",
      protocol: "http/protobuf",
      headers: {},
      serviceName: "openclaw",
      sampleRate: 1,
      flushIntervalMs: 1000,
      captureContent: false,
    });
    expect(traceSettings(config({ otel: { endpoint: "http://c:4318", tracesEndpoint: "http://t/exact" } }), {}).otel?.url).toBe("http://t/exact");
  });

  it("the OTEL_* variables fill what the config leaves unset; enabled false, traces false, diagnostics.enabled false or OTEL_SDK_DISABLED turn export off", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318", OTEL_SERVICE_NAME: "from-env", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    expect(traceSettings(config({}), env).otel).toMatchObject({ url: "http://env:4318/v1/traces", serviceName: "from-env", protocol: "http/json" });
    expect(traceSettings(config({}), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://env/traces" }).otel?.url).toBe("http://env/traces");
    expect(traceSettings(config({}), {}).otel).toBeUndefined();
    expect(traceSettings(config({ otel: { endpoint: "http://c", enabled: false } }), {}).otel).toBeUndefined();
    expect(traceSettings(config({ otel: { endpoint: "http://c", traces: false } }), {}).otel).toBeUndefined();
    expect(traceSettings(config({ otel: { endpoint: "http://c" } }), { OTEL_SDK_DISABLED: "TRUE" }).otel).toBeUndefined();
    const off = traceSettings(config({ enabled: false, otel: { endpoint: "http://c" } }), {});
    expect(off).toMatchObject({ enabled: false });
    expect(off.otel).toBeUndefined();
  });
});

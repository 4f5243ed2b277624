import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type CollectedSpan, decodeTraceRequest } from "./otlp-protobuf.js";

export type { CollectedSpan };

export interface FakeOtlpCollector {
  /** `http://127.0.0.1:PORT/v1/traces` */
  readonly endpoint: string;
  readonly spans: CollectedSpan[];
  /** Request headers of every export. */
  readonly headers: Record<string, string | string[] | undefined>[];
  /** Resolves once `predicate` holds for the spans received so far. */
  waitFor(predicate: (spans: CollectedSpan[]) => boolean, timeoutMs?: number): Promise<CollectedSpan[]>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };

function anyValueOf(v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValueOf);
  return undefined;
}

function flatten(attributes: { key: string; value: AnyValue }[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((a) => [a.key, anyValueOf(a.value)]));
}

/** A real HTTP server accepting OTLP/HTTP trace exports at /v1/traces, protobuf or JSON. */
export async function startFakeOtlpCollector(): Promise<FakeOtlpCollector> {
  const spans: CollectedSpan[] = [];
  const headers: FakeOtlpCollector["headers"] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const type = String(req.headers["content-type"]);
      if (req.method !== "POST" || req.url !== "/v1/traces" || !(type.includes("json") || type.includes("protobuf"))) {
        res.writeHead(415).end();
        return;
      }
      headers.push(req.headers);
      if (type.includes("protobuf")) {
        spans.push(...decodeTraceRequest(Buffer.concat(chunks)));
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
        for (const wake of waiters) wake();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: { resource?: { attributes?: never }; scopeSpans?: { spans?: Record<string, never>[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const resource = flatten(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              name: s.name,
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              attributes: flatten(s.attributes),
              resource,
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    headers,
    waitFor(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the collector did not receive the expected spans in ${timeoutMs} ms; got: ${spans.map((s) => s.name).join(", ")}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

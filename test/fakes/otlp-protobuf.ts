/**
 * Just enough of the protobuf wire format to read an OTLP `ExportTraceServiceRequest`, so the fake
 * collector can take what the gateway's protobuf exporter sends. Field numbers are those of
 * opentelemetry/proto/{collector/trace,trace,common,resource}/v1.
 */
type Field = { no: number; wire: number; value: bigint | Buffer };

function readFields(buf: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ no, wire, value: varint() });
    else if (wire === 1) fields.push({ no, wire, value: buf.subarray(at, (at += 8)) });
    else if (wire === 2) {
      const length = Number(varint());
      fields.push({ no, wire, value: buf.subarray(at, (at += length)) });
    } else if (wire === 5) fields.push({ no, wire, value: buf.subarray(at, (at += 4)) });
    else throw new Error(`protobuf wire type ${wire} is not read by this fake`);
  }
  return fields;
}

const bytes = (fields: Field[], no: number): Buffer[] => fields.filter((f) => f.no === no && f.wire === 2).map((f) => f.value as Buffer);
const text = (fields: Field[], no: number): string | undefined => bytes(fields, no)[0]?.toString("utf8");
const hex = (fields: Field[], no: number): string | undefined => bytes(fields, no)[0]?.toString("hex");

function anyValue(buf: Buffer): unknown {
  const [field] = readFields(buf);
  if (!field) return undefined;
  switch (field.no) {
    case 1:
      return (field.value as Buffer).toString("utf8");
    case 2:
      return field.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.value as bigint));
    case 4:
      return (field.value as Buffer).readDoubleLE(0);
    case 5:
      return bytes(readFields(field.value as Buffer), 1).map(anyValue);
    default:
      return undefined;
  }
}

function attributes(fields: Field[], no: number): Record<string, unknown> {
  return Object.fromEntries(
    bytes(fields, no).map((kv) => {
      const f = readFields(kv);
      return [text(f, 1) ?? "", bytes(f, 2)[0] ? anyValue(bytes(f, 2)[0]!) : undefined];
    }),
  );
}

/** A span as the collector received it, with its attributes flattened. */
export interface CollectedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export function decodeTraceRequest(body: Buffer): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  for (const resourceSpans of bytes(readFields(body), 1)) {
    const rs = readFields(resourceSpans);
    const resource = bytes(rs, 1)[0] ? attributes(readFields(bytes(rs, 1)[0]!), 1) : {};
    for (const scopeSpans of bytes(rs, 2)) {
      for (const span of bytes(readFields(scopeSpans), 2)) {
        const s = readFields(span);
        const parent = hex(s, 4);
        spans.push({
          name: text(s, 5) ?? "",
          traceId: hex(s, 1) ?? "",
          spanId: hex(s, 2) ?? "",
          ...(parent ? { parentSpanId: parent } : {}),
          attributes: attributes(s, 9),
          resource,
        });
      }
    }
  }
  return spans;
}

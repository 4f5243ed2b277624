/**
 * Stands between an agent's stdout and the ACP stream: lines that cannot be protocol messages
 * are dropped and reported instead of reaching the JSON-RPC layer. A line longer than
 * `maxLineBytes` is skipped as it streams (never buffered whole); a line that does not start
 * with `{` (a banner, a panic, a progress bar) is skipped too. Everything else passes unchanged,
 * and the SDK's ndJSON reader does the framing.
 */
export function createLineGuard(maxLineBytes: number, onSkip: (reason: string, sample: string) => void): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let skippedBytes = 0;
  const NEWLINE = 0x0a;

  const emitLine = (controller: TransformStreamDefaultController<Uint8Array>, parts: Uint8Array[]) => {
    const first = firstVisibleByte(parts);
    if (first === undefined) return;
    if (first !== 0x7b /* { */) {
      onSkip("not a JSON message", sample(parts));
      return;
    }
    for (const part of parts) controller.enqueue(part);
    controller.enqueue(Uint8Array.of(NEWLINE));
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, end);
        if (skipping) skippedBytes += piece.length;
        else if (pendingBytes + piece.length > maxLineBytes) {
          skipping = true;
          skippedBytes = pendingBytes + piece.length;
          pending = [];
          pendingBytes = 0;
        } else if (piece.length > 0) {
          pending.push(piece.slice());
          pendingBytes += piece.length;
        }
        if (newline === -1) break;
        if (skipping) onSkip(`a line of ${skippedBytes} bytes is over the ${maxLineBytes}-byte limit`, "");
        else emitLine(controller, pending);
        skipping = false;
        skippedBytes = 0;
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
    },
    flush(controller) {
      if (!skipping && pending.length > 0) emitLine(controller, pending);
    },
  });
}

function firstVisibleByte(parts: Uint8Array[]): number | undefined {
  for (const part of parts) {
    for (const byte of part) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return byte;
  }
  return undefined;
}

function sample(parts: Uint8Array[]): string {
  const text = Buffer.concat(parts.map((p) => p.subarray(0, 120)))
    .toString("utf8")
    .slice(0, 120);
  return text.replace(/[^\x20-\x7e]/g, "?");
}

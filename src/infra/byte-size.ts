const UNIT_BYTES = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 } as const;

/**
 * The size grammar, for the parser and for config schemas alike: a whole or decimal number and
 * an optional unit, b, kb, mb, gb or tb (powers of 1024; any case, a space allowed between), such
 * as `500mb`, `10gb`, `1.5 GB` or `4096`.
 */
export const BYTE_SIZE_PATTERN = "^\\s*\\d{1,15}(?:\\.\\d{1,6})?\\s*(?:[bB]|[kKmMgGtT][bB])?\\s*$";
const byteSizePattern = /^(\d{1,15}(?:\.\d{1,6})?)\s*([kmgt]?b)?$/;

/** A size such as `500mb` or `10gb` in bytes (rounded down), or a number of bytes as it is; undefined when it is not one. */
export function parseByteSize(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  const match = byteSizePattern.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * UNIT_BYTES[(match[2] ?? "b") as keyof typeof UNIT_BYTES]);
}

/** `1572864` → `1.5 MiB`: how sizes are shown back. */
export function formatByteSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * Seeded random inputs for the fuzz lane: a small PRNG (mulberry32, so a seed always gives the
 * same sequence), random JSON values, and mutations of valid values and of their bytes.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const AWKWARD_STRINGS = [
  "",
  " ",
  "\u0000",
  "\uffff",
  "\ud800",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "__proto__",
  "constructor",
  "../../etc/passwd",
  "%s%n%x",
  "${HOME}",
  "<script>alert(1)</script>",
  "'; DROP TABLE sessions; --",
  "\r\n\r\n",
  "a".repeat(10_000),
  "NaN",
  "-1",
  "1e309",
  "null",
];
const AWKWARD_NUMBERS = [0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 0.5, -0.0, 65_536];

export function randomString(rng: Rng): string {
  if (rng.chance(0.5)) return rng.pick(AWKWARD_STRINGS);
  const length = rng.int(40);
  let out = "";
  for (let i = 0; i < length; i += 1) out += String.fromCharCode(rng.chance(0.8) ? 32 + rng.int(95) : rng.int(0x3000));
  return out;
}

export function randomValue(rng: Rng, depth = 0): unknown {
  const kind = rng.int(depth > 3 ? 5 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick(AWKWARD_NUMBERS);
    case 3:
    case 4:
      return randomString(rng);
    case 5:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i -= 1) out[randomString(rng).slice(0, 20)] = randomValue(rng, depth + 1);
      return out;
    }
  }
}

/** A copy of `value` with one to three structural changes: a node replaced, a key dropped or added. */
export function mutateValue(rng: Rng, value: unknown): unknown {
  let result = structuredClone(value);
  for (let n = 1 + rng.int(3); n > 0; n -= 1) result = mutateOnce(rng, result, 0);
  return result;
}

function mutateOnce(rng: Rng, value: unknown, depth: number): unknown {
  const descend = value !== null && typeof value === "object" && rng.chance(0.7) && depth < 6;
  if (!descend) return rng.chance(0.2) ? undefined : randomValue(rng);
  if (Array.isArray(value)) {
    if (value.length === 0 || rng.chance(0.2)) return [...value, randomValue(rng)];
    const i = rng.int(value.length);
    const copy = [...value];
    copy[i] = mutateOnce(rng, copy[i], depth + 1);
    return copy;
  }
  const record = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(record);
  const roll = rng.int(4);
  if (roll === 0 || keys.length === 0) record[randomString(rng).slice(0, 20) || "k"] = randomValue(rng);
  else if (roll === 1) delete record[rng.pick(keys)];
  else {
    const key = rng.pick(keys);
    record[key] = mutateOnce(rng, record[key], depth + 1);
  }
  return record;
}

/** The JSON text of `value`, sometimes damaged: cut short, a byte changed, or junk inserted. */
export function mutateText(rng: Rng, text: string): string {
  const at = rng.int(Math.max(1, text.length));
  switch (rng.int(4)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + String.fromCharCode(rng.int(128)) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + randomString(rng) + text.slice(at);
    default:
      return text;
  }
}

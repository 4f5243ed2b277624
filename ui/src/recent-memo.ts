/**
 * `make(key)`, remembered for the `capacity` most recently used keys: a key used again moves to
 * the back, and the least recently used one is dropped when a new key would exceed the capacity.
 */
export function memoizeRecent<V>(make: (key: string) => V, capacity: number): (key: string) => V {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  const made = new Map<string, V>();
  return (key) => {
    const known = made.get(key);
    if (known !== undefined || made.has(key)) {
      made.delete(key);
      made.set(key, known as V);
      return known as V;
    }
    const value = make(key);
    made.set(key, value);
    if (made.size > capacity) made.delete(made.keys().next().value as string);
    return value;
  };
}

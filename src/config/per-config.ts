import type { OpenClawConfig } from "./types.js";

/**
 * `derive`, worked out once per loaded config: a loaded config never changes (a reload brings a
 * new object), so what a turn reads from it every time is read once and kept until the config goes.
 */
export function perConfig<T>(derive: (config: OpenClawConfig) => T): (config: OpenClawConfig) => T {
  const kept = new WeakMap<OpenClawConfig, T>();
  return (config) => {
    if (kept.has(config)) return kept.get(config) as T;
    const value = derive(config);
    kept.set(config, value);
    return value;
  };
}

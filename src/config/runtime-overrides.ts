import { unwritableKeyIssues } from "./edit-key-check.js";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, parseKeyPath, setOwnProperty, type KeyPathSegment } from "./key-path.js";

/** One runtime override: a key path and the value it has while the gateway runs. */
export interface RuntimeOverride {
  path: string;
  value: unknown;
}

/**
 * Config values set in memory only (`/debug set`), laid over the config file's content every time
 * it is read, before validation: the file is never written, and a restart drops them. Immutable:
 * `with` and `without` give a new set, so a change that fails validation leaves this one in force.
 */
export class RuntimeOverrides {
  static readonly none = new RuntimeOverrides(new Map());

  private constructor(private readonly entries: ReadonlyMap<string, { segments: KeyPathSegment[]; value: unknown }>) {}

  get size(): number {
    return this.entries.size;
  }

  list(): RuntimeOverride[] {
    return [...this.entries].map(([path, { value }]) => ({ path, value }));
  }

  /** These overrides plus `path` = `value` (replacing an override of the same path). */
  with(path: string, value: unknown): RuntimeOverrides {
    const segments = parseKeyPath(path);
    if (segments.length === 0) throw new ConfigError("a runtime override needs a key path");
    const key = formatKeyPath(segments);
    const next = new Map(this.entries);
    next.delete(key);
    next.set(key, { segments, value: structuredClone(value) });
    return new RuntimeOverrides(next);
  }

  /** These overrides without the one for `path`; undefined when there is none. */
  without(path: string): RuntimeOverrides | undefined {
    const key = formatKeyPath(parseKeyPath(path));
    if (!this.entries.has(key)) return undefined;
    const next = new Map(this.entries);
    next.delete(key);
    return new RuntimeOverrides(next);
  }

  /** Keys these overrides set that the schema does not know: refused, as an edit through the gateway would be. */
  unknownKeyIssues(): ConfigIssue[] {
    return unwritableKeyIssues({}, this.applyTo({}));
  }

  /**
   * `raw` (the file's parsed content, or `{}` without a file) with every override set, in the order
   * they were made. Objects missing on a path are created; `raw` itself is not changed. Throws
   * ConfigError when a path runs through a value that is not an object.
   */
  applyTo(raw: Record<string, unknown>): Record<string, unknown> {
    if (this.entries.size === 0) return raw;
    const root = structuredClone(raw);
    for (const [path, { segments, value }] of this.entries) {
      let node: Record<string, unknown> | unknown[] = root;
      segments.forEach((segment, index) => {
        const last = index === segments.length - 1;
        if (Array.isArray(node)) {
          const at = typeof segment === "number" ? segment : Number(segment);
          if (!Number.isInteger(at) || at < 0 || at > node.length)
            throw new ConfigError(`runtime override ${path}: ${formatKeyPath(segments.slice(0, index))} has no item ${segment}`);
          if (last) node[at] = structuredClone(value);
          else node = (node[at] ??= {}) as Record<string, unknown>;
          return;
        }
        const key = String(segment);
        if (last) return setOwnProperty(node, key, structuredClone(value));
        const child = node[key];
        if (child === undefined || child === null) setOwnProperty(node, key, {});
        else if (!isPlainObject(child) && !Array.isArray(child)) throw new ConfigError(`runtime override ${path}: ${formatKeyPath(segments.slice(0, index + 1))} is not an object`);
        node = node[key] as Record<string, unknown> | unknown[];
      });
    }
    return root;
  }
}

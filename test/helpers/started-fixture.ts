/** The values a file's `beforeAll` hook starts, writable by the hook. */
export type FixtureState<T> = { -readonly [K in keyof T]?: T[K] };

/**
 * What a hook helper hands the test file: `state` as the hook fills it in. Reading a value the
 * hook has not set yet (at the file's top level, before `beforeAll` ran) throws, naming it.
 */
export function startedFixture<T extends object>(state: FixtureState<T>): T {
  return new Proxy(state, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (value === undefined) throw new Error(`${String(key)} is not started yet: use it inside a test or a hook`);
      return value;
    },
  }) as T;
}

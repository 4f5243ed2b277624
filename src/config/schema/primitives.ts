import { Type, type TLiteral, type TUnion, type SchemaOptions } from "@sinclair/typebox";

/**
 * A closed set of strings. Built as a union of literals (not a JSON-schema `enum`) so
 * typebox both checks it and infers the literal type; issue messages list the choices.
 */
export function stringEnum<const T extends readonly [string, ...string[]]>(values: T, options?: SchemaOptions) {
  const literals = values.map((value) => Type.Literal(value));
  return Type.Union(literals, options) as unknown as TUnion<TLiteral<T[number]>[]>;
}

/** Integer with optional inclusive bounds; the bounds show up in error messages. */
export function integer(minimum?: number, maximum?: number) {
  return Type.Integer({ ...(minimum !== undefined && { minimum }), ...(maximum !== undefined && { maximum }) });
}

export const StringList = Type.Array(Type.String());
export const NonEmptyString = Type.String({ minLength: 1 });

/**
 * Schemas may carry `expected`: the phrase used after "expected " when a value does not
 * match, for cases the generic wording would make cryptic (regex patterns, mostly).
 */
export function withExpected<T extends object>(schema: T, expected: string): T {
  return Object.assign(schema, { expected });
}

/** Where an HTTP API lives (a model provider, an embeddings endpoint): an http(s) URL; a bare `localhost:11434/v1` is not one. */
export const ApiBaseUrl = withExpected(Type.String({ pattern: "^https?://\\S+$" }), 'an http(s) URL such as "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1"');

/** The longest wait one Node timer holds, in milliseconds (2^31 - 1); a longer one would expire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The longest wait one Node timer holds, in whole seconds (2^31 - 1 ms); a longer one would expire at once. */
export const MAX_TIMER_SECONDS = 2_147_483;
const TIMER_LIMIT = `${MAX_TIMER_SECONDS} (about 24.8 days, the longest a timer holds)`;

/** A timeout in seconds, > 0 and no longer than a timer holds. */
export const timeoutSeconds = () => withExpected(Type.Number({ exclusiveMinimum: 0, maximum: MAX_TIMER_SECONDS }), `seconds > 0, at most ${TIMER_LIMIT}`);

/** A timeout in whole seconds, 1 to what a timer holds. */
export const wholeTimeoutSeconds = () => withExpected(integer(1, MAX_TIMER_SECONDS), `whole seconds 1-${TIMER_LIMIT}`);

/** How block replies are merged before they are sent: `agents.defaults.blockStreamingCoalesce`, a channel's `streaming.block.coalesce`. */
export const BlockStreamingCoalesce = Type.Object({
  minChars: Type.Optional(integer(1, 100_000)),
  maxChars: Type.Optional(integer(1, 100_000)),
  idleMs: Type.Optional(integer(0, 5_000)),
});

/** One id's outcome: its value, or why there is none (never holding the secret). */
export type SecretOutcome = { value: string } | { problem: string };

/** A value a credential can be: a non-empty string. */
export function secretValue(value: unknown): SecretOutcome {
  if (typeof value !== "string") return { problem: `the value is ${value === null ? "null" : typeof value}, not a string` };
  if (value === "") return { problem: "the value is empty" };
  return { value };
}

/** The same problem for every id of a provider that failed as a whole. */
export function failAll(ids: readonly string[], problem: string): Map<string, SecretOutcome> {
  return new Map(ids.map((id) => [id, { problem }]));
}

/** A JSON object (what a resolver answers, what a secrets file holds). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

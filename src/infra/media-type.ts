/** A `type/subtype; charset=…` value: the type in lower case and the charset when one is named. */
export function parseMediaType(value: string): { mimeType: string; charset?: string } {
  const [type = "", ...parameters] = value.split(";");
  const charset = parameters
    .map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter)?.[1])
    .find((name) => name !== undefined)
    ?.toLowerCase();
  return { mimeType: type.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

/** A setting read from the environment that must be a positive integer; anything else is unset. */
export function positiveIntSetting(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
}

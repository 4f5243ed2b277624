export type Severity = "critical" | "warn" | "info";

/** One thing the audit found: how bad, what it is, and the change that removes it. */
export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  fix: string;
}

import { html, nothing, type TemplateResult } from "lit";
import { GatewayRequestError, type GatewayClient } from "./gateway-client.js";

/** What a view shows when the gateway it talks to has no such method. */
export function unavailable(method: string): TemplateResult {
  return html`<p class="unavailable" role="status">Not available on this gateway: it has no <code>${method}</code> method.</p>`;
}

/** The line a view shows in place of actions the connection's scopes do not allow. */
export function readOnlyLine(text: string): TemplateResult {
  return html`<p class="hint read-only">${text}</p>`;
}

export function errorBox(error: string | undefined): TemplateResult | typeof nothing {
  return error ? html`<p class="error" role="alert">${error}</p>` : nothing;
}

/** Call a method; `unavailable` when the gateway does not know it, so the view can say so honestly. */
export async function call<T>(
  client: GatewayClient,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ ok: true; value: T } | { ok: false; unavailable: boolean; message: string }> {
  if (client.hello && !client.has(method)) return { ok: false, unavailable: true, message: `unknown method: ${method}` };
  try {
    return { ok: true, value: await client.request<T>(method, params) };
  } catch (err) {
    const unknown = err instanceof GatewayRequestError && err.isUnknownMethod;
    return { ok: false, unavailable: unknown, message: `${method} failed: ${(err as Error).message}` };
  }
}

export function formatTime(ms: number | null | undefined): string {
  if (!ms) return "—";
  return new Date(ms).toLocaleString();
}

export function formatNumber(n: unknown): string {
  return typeof n === "number" && Number.isFinite(n) ? n.toLocaleString() : "—";
}

/** Any list of records as a table; every value is shown as text. */
export function recordTable(rows: readonly Record<string, unknown>[], columns?: readonly string[]): TemplateResult {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, 8);
  return html`<div class="table-wrap"><table>
    <thead><tr>${cols.map((c) => html`<th>${c}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${cols.map((c) => html`<td>${cellText(r[c])}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

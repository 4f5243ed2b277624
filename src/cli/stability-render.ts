import { formatByteSize } from "../infra/byte-size.js";
import type { StabilityEvent, StabilitySnapshot } from "../infra/stability/stability-event.js";
import type { StabilityBundle } from "../infra/stability/stability-bundle.js";

/** The snapshot as lines: counts, the most frequent types, memory, oversized payloads, then the listed events. */
export function renderStabilitySnapshot(snapshot: StabilitySnapshot): string[] {
  const lines = ["Gateway stability", `Events: ${snapshot.count}/${snapshot.capacity}${snapshot.dropped > 0 ? ` · dropped=${snapshot.dropped}` : ""}`];
  const types = Object.entries(snapshot.summary.byType)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 8)
    .map(([type, count]) => `${type}=${count}`);
  if (types.length > 0) lines.push(`Types: ${types.join(", ")}`);
  const memory = snapshot.summary.memory;
  if (memory)
    lines.push(`Memory: rss=${bytes(memory.latest?.rssBytes)} heap=${bytes(memory.latest?.heapUsedBytes)} maxRss=${bytes(memory.maxRssBytes)} pressure=${memory.pressureCount}`);
  const large = snapshot.summary.payloadLarge;
  if (large) {
    const surfaces = Object.entries(large.bySurface).map(([surface, count]) => `${surface}=${count}`);
    lines.push(`Large payloads: total=${large.count} rejected=${large.rejected} truncated=${large.truncated} chunked=${large.chunked} · ${surfaces.join(", ")}`);
  }
  if (snapshot.events.length > 0) lines.push("Recent:", ...snapshot.events.map((event) => `  ${renderEvent(event)}`));
  return lines;
}

/** A bundle's header (where, when, why, which process), then its snapshot. */
export function renderStabilityBundle(file: string, bundle: StabilityBundle, snapshot: StabilitySnapshot): string[] {
  const p = bundle.process;
  const error = bundle.error ? [bundle.error.name ? `name=${bundle.error.name}` : "", bundle.error.code ? `code=${bundle.error.code}` : ""].filter(Boolean).join(" ") : "";
  return [
    "Stability bundle",
    `Path: ${file}`,
    `Generated: ${bundle.generatedAt}`,
    `Reason: ${bundle.reason}`,
    `Process: pid=${p.pid} node=${p.node} ${p.platform}/${p.arch} uptime=${Math.round(p.uptimeMs / 1000)}s`,
    ...(error ? [`Error: ${error}`] : []),
    "",
    ...renderStabilitySnapshot(snapshot),
  ];
}

function renderEvent(event: StabilityEvent): string {
  return [
    new Date(event.ts).toISOString(),
    `#${event.seq}`,
    event.type,
    event.level ? `level=${event.level}` : "",
    event.action ? `action=${event.action}` : "",
    event.outcome ? `outcome=${event.outcome}` : "",
    event.surface ? `surface=${event.surface}` : "",
    event.channel ? `channel=${event.channel}` : "",
    event.source ? `source=${event.source}` : "",
    event.target ? `target=${event.target}` : "",
    event.reason ? `reason=${event.reason}` : "",
    event.bytes !== undefined ? `bytes=${bytes(event.bytes)}` : "",
    event.limitBytes !== undefined ? `limit=${bytes(event.limitBytes)}` : "",
    event.durationMs !== undefined ? `durationMs=${event.durationMs}` : "",
    event.memory ? `rss=${bytes(event.memory.rssBytes)} heap=${bytes(event.memory.heapUsedBytes)}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function bytes(value: number | undefined): string {
  return value === undefined ? "n/a" : formatByteSize(value);
}

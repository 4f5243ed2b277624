/** The fields of the gateway's `status` and `health` answers the CLI prints. */
export interface GatewayStatusSnapshot {
  version: string;
  pid: number;
  host: string;
  port: number;
  uptimeMs: number;
  connections: number;
  /** Present when the gateway serves TLS (gateway.tls). */
  tls?: { fingerprintSha256: string; validTo: string };
  authMode?: string;
  sessions?: { count?: number };
  channels?: Record<string, { connected?: boolean; running?: boolean; lastError?: string | null }>;
}

export interface HealthSnapshot {
  agents?: { agentId: string; isDefault?: boolean; sessions?: { count?: number } }[];
  channelOrder?: string[];
}

/** `main (default): 3 sessions`, one entry per agent of a health snapshot. */
export function agentSessionCounts(health: HealthSnapshot): string[] {
  return (health.agents ?? []).map((a) => `${a.agentId}${a.isDefault ? " (default)" : ""}: ${a.sessions?.count ?? 0} sessions`);
}

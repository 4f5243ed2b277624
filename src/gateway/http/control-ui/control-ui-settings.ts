import type { OpenClawConfig } from "../../../config/index.js";

export interface ControlUiSettings {
  enabled: boolean;
  /** Always starts and ends with "/": "/" or "/openclaw/". */
  basePath: string;
  allowedOrigins: readonly string[];
}

const BASE_PATH_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * `gateway.controlUi.*` with its defaults (served, at the root). A base path is a plain URL
 * prefix such as `/openclaw`; anything else (query, spaces, `..`) is refused at start-up with
 * the key named, so the UI never ends up mounted somewhere nobody asked for.
 */
export function resolveControlUiSettings(config: OpenClawConfig): ControlUiSettings {
  const raw = config.gateway?.controlUi ?? {};
  return { enabled: raw.enabled ?? true, basePath: normalizeBasePath(raw.basePath), allowedOrigins: raw.allowedOrigins ?? [] };
}

function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? "").trim();
  const segments = trimmed.split("/").filter((s) => s.length > 0);
  for (const segment of segments) {
    if (!BASE_PATH_SEGMENT.test(segment) || segment === "." || segment === "..") {
      throw new Error(`gateway.controlUi.basePath: "${value}" is not a plain URL path (use letters, digits, "-", "_", ".", "~" between slashes, e.g. "/openclaw")`);
    }
  }
  return segments.length === 0 ? "/" : `/${segments.join("/")}/`;
}

/**
 * The address a person opens in the browser. With a token it carries `?token=`: the page stores
 * the token and removes it from the address bar at once.
 */
export function controlUiUrl(host: string, port: number, basePath: string, opts: { token?: string; secure?: boolean } = {}): string {
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const query = opts.token ? `?token=${encodeURIComponent(opts.token)}` : "";
  return `${opts.secure ? "https" : "http"}://${shownHost}:${port}${basePath}${query}`;
}

import { REDACTED, redactConfig, secretRefValues, type OpenClawConfig } from "../config/index.js";
import { compileRedactPatterns } from "../infra/logger.js";

const MASK = "[redacted]";
/** Environment variables whose values are credentials by their name. */
const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD)S?$/i;
/** Credential shapes worth masking wherever they appear: provider keys, bearer values, private keys. */
const BUILT_IN_PATTERNS = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:xox[abpr]|xapp)-[A-Za-z0-9-]{10,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

/**
 * What a trace must not hold: the config's credentials (the same keys `config get` hides, and
 * every value read through a SecretRef), the
 * process's secret environment values, `logging.redactPatterns` (as in the log) and common
 * credential shapes. Objects (tool arguments) lose secret-named fields the way configs do.
 */
export class TraceRedactor {
  private readonly secrets: string[];
  private readonly masks: RegExp[];

  constructor(config: OpenClawConfig, env: NodeJS.ProcessEnv) {
    const secrets = new Set<string>();
    collectRedacted(config, redactConfig(config), secrets);
    // A SecretRef's value is a secret under any key (a custom provider header).
    for (const value of secretRefValues()) secrets.add(value);
    for (const [name, value] of Object.entries(env)) if (value && SECRET_ENV_NAME.test(name)) secrets.add(value);
    // Very short values would blank out ordinary words; real credentials are long. Longest first,
    // so a secret that contains another is masked whole.
    this.secrets = [...secrets].filter((s) => s.length >= 8).sort((a, b) => b.length - a.length);
    this.masks = [...BUILT_IN_PATTERNS, ...compileRedactPatterns(config.logging.redactPatterns ?? [])];
  }

  text(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
    for (const mask of this.masks) {
      mask.lastIndex = 0;
      out = out.replace(mask, MASK);
    }
    return out;
  }

  /** A JSON-like value: secret-named fields masked, every string scrubbed. */
  value(value: unknown): unknown {
    return this.scrub(redactConfig(value));
  }

  private scrub(value: unknown): unknown {
    if (typeof value === "string") return value === REDACTED ? MASK : this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) Object.defineProperty(out, key, { value: this.scrub(child), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  }
}

/** The original values `redactConfig` replaced: the credentials of this config. */
function collectRedacted(original: unknown, redacted: unknown, into: Set<string>): void {
  if (redacted === REDACTED && (typeof original === "string" || typeof original === "number")) {
    into.add(String(original));
    return;
  }
  if (Array.isArray(original) && Array.isArray(redacted)) original.forEach((item, i) => collectRedacted(item, redacted[i], into));
  else if (original && typeof original === "object" && redacted && typeof redacted === "object") {
    for (const [key, child] of Object.entries(original)) collectRedacted(child, (redacted as Record<string, unknown>)[key], into);
  }
}

import { Type } from "@sinclair/typebox";
import { NonEmptyString, StringList } from "./primitives.js";

/**
 * `browser.ssrfPolicy`: which private addresses the managed browser may load. Everything private,
 * loopback, link-local or this host's own is refused unless one of these opens it.
 */
export const BrowserSsrfPolicySchema = Type.Object({
  /** Every private address (as trusted as the local network); off by default. */
  dangerouslyAllowPrivateNetwork: Type.Optional(Type.Boolean()),
  /** OpenClaw's older name for dangerouslyAllowPrivateNetwork. */
  allowPrivateNetwork: Type.Optional(Type.Boolean()),
  /** Exact hostnames (or IP literals) allowed even when they resolve to a private address. */
  allowedHostnames: Type.Optional(StringList),
  /** 198.18.0.0/15, the range fake-IP proxies answer with. */
  allowRfc2544BenchmarkRange: Type.Optional(Type.Boolean()),
  /** fc00::/7, the IPv6 unique-local range fake-IP proxies answer with. */
  allowIpv6UniqueLocalRange: Type.Optional(Type.Boolean()),
});

/**
 * `browser`: the one OpenClaw-managed Chromium profile (`openclaw`) the browser tool drives.
 * Remote CDP, attach-only, extra profiles and tab sweeps are dropped at load with a warning
 * (unsupported-keys.ts).
 */
export const BrowserSchema = Type.Object({
  /** Default true, as in OpenClaw: offered when a Chromium binary is found. */
  enabled: Type.Optional(Type.Boolean()),
  /** Which Chromium-family binary to launch; default: the first of the usual ones found. */
  executablePath: Type.Optional(NonEmptyString),
  /** Default false; on Linux without DISPLAY/WAYLAND_DISPLAY the browser runs headless unless this is set false. */
  headless: Type.Optional(Type.Boolean()),
  /** Launch Chromium with --no-sandbox (needed when the gateway runs as root, e.g. in a container). */
  noSandbox: Type.Optional(Type.Boolean()),
  ssrfPolicy: Type.Optional(BrowserSsrfPolicySchema),
});

import { SESSION_TOOL_NAMES } from "./tool-groups.js";

/**
 * The sandbox layer's lists when neither `agents…tools.sandbox.tools` nor
 * `tools.sandbox.tools` sets them (OpenClaw does the same). A sandboxed session keeps the
 * tools that work inside the container and loses the ones that act on the host or the
 * outside world: a browser, canvas and node/computer control, cron and the gateway.
 * Each list is replaced separately: configuring only `deny` keeps the default `allow`.
 */
export const SANDBOX_DEFAULT_ALLOW: readonly string[] = ["exec", "process", "read", "write", "edit", "apply_patch", "image", ...SESSION_TOOL_NAMES];

export const SANDBOX_DEFAULT_DENY: readonly string[] = ["browser", "canvas", "computer", "nodes", "cron", "gateway"];

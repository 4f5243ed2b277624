/** One `sandbox.docker.binds` entry: a host directory (or file) mounted into the sandbox. */
export interface SandboxBind {
  source: string;
  target: string;
  writable: boolean;
}

/**
 * Host paths a bind may not mount: the system itself, the kernel's views, and the container
 * engine's socket (mounting it hands the sandbox the host). A path inside one of the first list
 * counts too.
 */
const BLOCKED_TREES = ["/etc", "/proc", "/sys", "/dev", "/boot", "/root", "/run", "/var/run"];
const BLOCKED_EXACT = ["/", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var", "/home"];

/** Where a bind may not land inside the sandbox: over the system directories it reads or its own /proc, /dev, /tmp. */
const BLOCKED_TARGETS = ["/", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/proc", "/dev", "/tmp", "/sys"];

/**
 * `host:container[:ro|rw]` (OpenClaw's form; read-write when the mode is left out), both paths
 * absolute and normalised. A problem names what to change.
 */
export function parseSandboxBind(spec: string): SandboxBind | { problem: string } {
  const parts = spec.split(":");
  if (parts.length < 2 || parts.length > 3) return { problem: `"${spec}" is not host-path:sandbox-path[:ro|rw]` };
  const [source, target, mode] = parts as [string, string, string | undefined];
  if (mode !== undefined && mode !== "ro" && mode !== "rw") return { problem: `"${spec}": the mode is ro or rw, not "${mode}"` };
  for (const [what, value] of [
    ["host path", source],
    ["sandbox path", target],
  ] as const) {
    if (!value.startsWith("/")) return { problem: `"${spec}": the ${what} must be absolute` };
    if (value.split("/").some((segment) => segment === "." || segment === "..")) return { problem: `"${spec}": the ${what} may not contain . or .. segments` };
  }
  const src = trimSlash(source);
  const dst = trimSlash(target);
  if (src.endsWith("docker.sock") || BLOCKED_EXACT.includes(src) || BLOCKED_TREES.some((tree) => src === tree || src.startsWith(`${tree}/`))) {
    return { problem: `"${spec}": ${src} may not be mounted into a sandbox (it would give the sandbox the host's system or its container engine)` };
  }
  if (BLOCKED_TARGETS.some((tree) => dst === tree || (tree !== "/" && dst.startsWith(`${tree}/`)))) {
    return { problem: `"${spec}": ${dst} is the sandbox's own system directory; mount somewhere else (e.g. /mnt/data)` };
  }
  return { source: src, target: dst, writable: mode !== "ro" };
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

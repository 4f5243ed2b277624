import fs from "node:fs";
import net from "node:net";

export interface PortOwner {
  pid: number;
  /** The owner's command line, cut to 200 characters. */
  command: string;
}

/** Whether a TCP listener can be opened on host:port right now (then closed at once). */
export function probePortFree(host: string, port: number): Promise<{ free: true } | { free: false; code: string }> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve({ free: false, code: err.code ?? "EIO" }));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve({ free: true })));
  });
}

// /proc/net/tcp{,6}: "sl local_address rem_address st ... inode"; state 0A is LISTEN.
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const portHex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && cols[1]!.endsWith(`:${portHex}`) && cols[3] === "0A") inodes.add(cols[9]!);
    }
  }
  return inodes;
}

/**
 * Which process listens on `port` (Linux: /proc). Only processes this user may inspect are found;
 * undefined when the owner is someone else's or the platform has no /proc.
 */
export function findPortOwner(port: number): PortOwner | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const targets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (!targets.has(link)) continue;
      let command = "";
      try {
        command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ").slice(0, 200);
      } catch {
        command = "";
      }
      return { pid: Number(pid), command };
    }
  }
  return undefined;
}

import fs from "node:fs";
import path from "node:path";

/**
 * A `docker` executable for tests (there is no Docker engine here): it records every call's
 * arguments and, for `docker run`, executes the command that follows the image (from the first
 * `/bin/sh` on) on the host, so the tool sees real output. `calls()` returns the recorded
 * argument lists in order.
 */
export interface FakeDocker {
  /** The directory holding `docker`: put it first on PATH. */
  dir: string;
  calls(): string[][];
}

const SEPARATOR = "--fake-docker-call-end--";

export function installFakeDocker(dir: string): FakeDocker {
  fs.mkdirSync(dir, { recursive: true });
  const log = path.join(dir, "calls.log");
  const script = [
    "#!/bin/sh",
    `for arg in "$@"; do printf '%s\\n' "$arg"; done >> '${log}'`,
    `printf '%s\\n' '${SEPARATOR}' >> '${log}'`,
    'if [ "$1" = "run" ]; then',
    '  while [ $# -gt 0 ] && [ "$1" != "/bin/sh" ]; do shift; done',
    '  exec "$@"',
    "fi",
    "exit 0",
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "docker"), script, { mode: 0o755 });
  return {
    dir,
    calls: () => {
      if (!fs.existsSync(log)) return [];
      const calls: string[][] = [];
      let current: string[] = [];
      for (const line of fs.readFileSync(log, "utf8").split("\n")) {
        if (line === SEPARATOR) {
          calls.push(current);
          current = [];
        } else if (line !== "" || current.length > 0) current.push(line);
      }
      return calls;
    },
  };
}

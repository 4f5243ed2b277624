import path from "node:path";

/**
 * Programs that run whatever code or command their arguments carry: shells, language
 * interpreters, and carriers that start another program (`env`, `xargs`, `find -exec`, `make`,
 * GNU `sed`'s `e`). Approving one such line says nothing about the next, so an `allow-always`
 * answer never adds them to the allowlist (OpenClaw keeps interpreters out of allow-always too).
 */
const CODE_RUNNERS = new Set([
  ...["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"],
  ...["python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "bun", "deno", "ruby", "perl", "php", "lua", "luajit"],
  ...["awk", "gawk", "mawk", "nawk", "r", "rscript", "julia", "tclsh", "wish", "expect", "osascript", "pwsh", "powershell", "groovy", "scala"],
  ...["env", "xargs", "find", "make", "gmake", "sed", "gsed", "nice", "nohup", "timeout", "stdbuf", "setsid", "sudo", "doas", "su", "eval", "exec", "command", "builtin"],
]);

/** `python3.12`, `/usr/bin/node`, `Python3` all name an interpreter. */
export function runsCodeFromArguments(bin: string): boolean {
  const name = path.basename(bin).toLowerCase();
  if (CODE_RUNNERS.has(name)) return true;
  const unversioned = name.replace(/-?\d+(?:\.\d+)*$/, "");
  return unversioned.length > 0 && CODE_RUNNERS.has(unversioned);
}

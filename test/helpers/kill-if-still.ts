import fs from "node:fs";

/**
 * SIGKILLs `pid` only while its command line or environment still contains `marker`. A pid read
 * from a file, or kept from a process that has since exited, may already belong to another
 * process (pids wrap at 32768 here, and a test run starts tens of thousands): another test's
 * gateway among them.
 */
export function killIfStill(pid: number, marker: string): boolean {
  let described: string;
  try {
    described = ["cmdline", "environ"].map((file) => fs.readFileSync(`/proc/${pid}/${file}`, "utf8")).join("\0");
  } catch {
    return false;
  }
  if (!described.split("\0").some((part) => part.includes(marker))) return false;
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

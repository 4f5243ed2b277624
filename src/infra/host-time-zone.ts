import fs from "node:fs";
import path from "node:path";

/** Where POSIX systems keep the IANA zone files; a zone's name is its path below one of them. */
const ZONEINFO_DIRS = ["/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo"];

/** The spellings of UTC that Intl reports as "UTC". */
const UTC_ALIASES = /^(?:Etc\/)?(?:UTC|UCT|GMT|Universal|Zulu)$/i;

/** What the host's zone is read from; each a function so tests can stand in for the system. */
export interface HostTimeZoneSources {
  /** `$TZ`. */
  tz: string | undefined;
  /** Where the `/etc/localtime` symlink points (absolute), undefined when it is no symlink. */
  localtimeTarget(): string | undefined;
  /** Whether a zone of this name exists in the system's zone files. */
  zoneExists(name: string): boolean;
  /** The answer of `Intl`, asked only when the files give none. */
  intlZone(): string;
}

/**
 * The host's IANA time zone, found the way ICU finds it on a POSIX system: `$TZ` when it names a
 * zone, else the zone `/etc/localtime` links to; only when neither answers (no zone files, a
 * copied `/etc/localtime`, another OS) is `Intl` asked. `Intl`'s first formatter resolves the
 * locales every ICU formatter supports, which maps ~5 MiB of ICU data into the process and takes
 * 35-50 ms (docs/architecture.md, "Measured costs"); a gateway that never formats in another
 * zone does not need it, because the `Date` getters already give local time in this zone.
 */
export function resolveHostTimeZone(sources: HostTimeZoneSources): string {
  // A `$TZ` that is set but names no zone (empty, a POSIX rule) is left to ICU to interpret.
  const named = sources.tz !== undefined ? zoneNameOf(sources.tz.replace(/^:/, "").trim()) : zoneNameOf(sources.localtimeTarget());
  if (!named) return sources.intlZone();
  if (UTC_ALIASES.test(named)) return "UTC";
  return sources.zoneExists(named) ? named : sources.intlZone();
}

/** `Europe/Berlin` from `Europe/Berlin` or from a path into a zoneinfo directory; undefined for anything else. */
function zoneNameOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!path.isAbsolute(value)) return /^[A-Za-z][\w+-]*(?:\/[\w+-]+)*$/.test(value) ? value : undefined;
  const at = value.lastIndexOf("/zoneinfo/");
  if (at < 0) return undefined;
  const name = value.slice(at + "/zoneinfo/".length).replace(/^(?:posix|right)\//, "");
  return zoneNameOf(name);
}

const systemSources: Omit<HostTimeZoneSources, "tz"> = {
  localtimeTarget() {
    try {
      return path.resolve("/etc", fs.readlinkSync("/etc/localtime"));
    } catch {
      return undefined;
    }
  },
  zoneExists: (name) => ZONEINFO_DIRS.some((dir) => fs.existsSync(path.join(dir, name))),
  intlZone: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
};

let hostZone: string | undefined;

/** The host's time zone (see resolveHostTimeZone), found once per process. */
export function hostTimeZone(): string {
  hostZone ??= resolveHostTimeZone({ ...systemSources, tz: process.env.TZ });
  return hostZone;
}

import { describe, expect, it } from "vitest";
import { hostTimeZone, resolveHostTimeZone, type HostTimeZoneSources } from "../../../src/infra/host-time-zone.js";

const ZONES = new Set(["Europe/Berlin", "America/New_York", "Etc/UTC", "EST5EDT"]);

function sources(over: Partial<HostTimeZoneSources>): HostTimeZoneSources & { intlAsked: () => number } {
  let asked = 0;
  return {
    tz: undefined,
    localtimeTarget: () => undefined,
    zoneExists: (name) => ZONES.has(name),
    intlZone: () => {
      asked++;
      return "Intl/Answer";
    },
    intlAsked: () => asked,
    ...over,
  };
}

describe("resolveHostTimeZone", () => {
  it("takes $TZ when it names a zone the system has, with or without the leading colon or a zoneinfo path", () => {
    for (const tz of ["Europe/Berlin", ":Europe/Berlin", "/usr/share/zoneinfo/Europe/Berlin", ":/usr/share/zoneinfo/posix/Europe/Berlin"]) {
      const src = sources({ tz, localtimeTarget: () => "/usr/share/zoneinfo/America/New_York" });
      expect(resolveHostTimeZone(src), tz).toBe("Europe/Berlin");
      expect(src.intlAsked()).toBe(0);
    }
  });

  it("takes the zone /etc/localtime links to when $TZ is unset", () => {
    const src = sources({ localtimeTarget: () => "/usr/share/zoneinfo/America/New_York" });
    expect(resolveHostTimeZone(src)).toBe("America/New_York");
    expect(src.intlAsked()).toBe(0);
  });

  it('reports the spellings of UTC as "UTC", as Intl does', () => {
    expect(resolveHostTimeZone(sources({ localtimeTarget: () => "/usr/share/zoneinfo/Etc/UTC" }))).toBe("UTC");
    expect(resolveHostTimeZone(sources({ tz: "GMT" }))).toBe("UTC");
    expect(resolveHostTimeZone(sources({ tz: "Etc/Universal" }))).toBe("UTC");
  });

  it("asks Intl when the files give no zone: an unknown or unnamed $TZ, a copied /etc/localtime, no zone files", () => {
    for (const src of [
      sources({ tz: "Mars/Olympus_Mons" }),
      sources({ tz: "" }),
      sources({ tz: "<+0330>-3:30" }),
      sources({ tz: "/opt/zones/custom" }),
      sources({ localtimeTarget: () => undefined }),
      sources({ localtimeTarget: () => "/etc/zones/Europe/Berlin" }),
      sources({ localtimeTarget: () => "/usr/share/zoneinfo/Europe/Berlin", zoneExists: () => false }),
    ]) {
      expect(resolveHostTimeZone(src)).toBe("Intl/Answer");
      expect(src.intlAsked()).toBe(1);
    }
  });

  it("agrees with Intl on this machine", () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const ours = hostTimeZone();
    // Both name the same offsets now; Intl may use an older alias (Asia/Calcutta for Asia/Kolkata).
    const offsetIn = (zone: string) => new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).format(new Date("2026-01-15T12:00:00Z"));
    expect(offsetIn(ours)).toBe(offsetIn(intl));
  });
});

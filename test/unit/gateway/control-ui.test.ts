import { describe, expect, it } from "vitest";
import { checkBrowserOrigin } from "../../../src/gateway/auth/browser-origin.js";
import { controlUiUrl, resolveControlUiSettings } from "../../../src/gateway/http/control-ui/control-ui-settings.js";
import type { OpenClawConfig } from "../../../src/config/index.js";

const withUi = (controlUi: Record<string, unknown> | undefined) => ({ gateway: { controlUi } }) as unknown as OpenClawConfig;

describe("browser origin rule", () => {
  it("lets clients without an Origin (CLI, SDKs) and pages from this machine through", () => {
    for (const origin of [undefined, "http://localhost:18789", "http://127.0.0.1:5173", "http://127.8.9.10", "http://[::1]:18789", "https://LOCALHOST"]) {
      expect(checkBrowserOrigin(origin, []).ok, String(origin)).toBe(true);
    }
  });

  it("lets listed origins through, matched as origins (case, default port and trailing slash do not matter)", () => {
    const allowed = ["https://Ops.Example.com/", "http://192.168.1.5:18789"];
    expect(checkBrowserOrigin("https://ops.example.com", allowed).ok).toBe(true);
    expect(checkBrowserOrigin("https://ops.example.com:443", allowed).ok).toBe(true);
    expect(checkBrowserOrigin("http://192.168.1.5:18789", allowed).ok).toBe(true);
    expect(checkBrowserOrigin("https://anything.example", ["*"]).ok).toBe(true);
  });

  it("refuses every other origin with CONTROL_UI_ORIGIN_NOT_ALLOWED and the key to change", () => {
    for (const origin of ["https://evil.example", "http://192.168.1.5:8080", "http://localhost.evil.example", "null", "not a url"]) {
      const result = checkBrowserOrigin(origin, ["http://192.168.1.5:18789"]);
      expect(result.ok, origin).toBe(false);
      if (!result.ok) {
        expect(result.error.details).toMatchObject({ code: "CONTROL_UI_ORIGIN_NOT_ALLOWED" });
        expect(result.error.message).toContain("gateway.controlUi.allowedOrigins");
      }
    }
  });
});

describe("gateway.controlUi settings", () => {
  it("serves at the root by default and normalizes a base path to /prefix/", () => {
    expect(resolveControlUiSettings(withUi(undefined))).toEqual({ enabled: true, basePath: "/", allowedOrigins: [] });
    expect(resolveControlUiSettings(withUi({ basePath: "openclaw" })).basePath).toBe("/openclaw/");
    expect(resolveControlUiSettings(withUi({ basePath: "/a/b/" })).basePath).toBe("/a/b/");
    expect(resolveControlUiSettings(withUi({ basePath: "/", enabled: false })).enabled).toBe(false);
  });

  it("refuses a base path that is not plain path segments, naming the key", () => {
    for (const basePath of ["/a/../b", "/a b", "/ui?x=1", "/%2e%2e", "/./x"]) {
      expect(() => resolveControlUiSettings(withUi({ basePath })), basePath).toThrow(/gateway\.controlUi\.basePath/);
    }
  });

  it("builds the link a person opens: loopback for a wildcard bind, the token as ?token=", () => {
    expect(controlUiUrl("0.0.0.0", 18789, "/")).toBe("http://127.0.0.1:18789/");
    expect(controlUiUrl("127.0.0.1", 18789, "/", { secure: true })).toBe("https://127.0.0.1:18789/");
    expect(controlUiUrl("127.0.0.1", 18789, "/openclaw/", { token: "a b&c" })).toBe("http://127.0.0.1:18789/openclaw/?token=a%20b%26c");
    expect(controlUiUrl("::1", 1, "/")).toBe("http://[::1]:1/");
  });
});

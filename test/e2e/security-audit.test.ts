import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";

function stateWith(config: Record<string, unknown>, mode = 0o600): string {
  const dir = makeTempDir();
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, "openclaw.json");
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  fs.chmodSync(file, mode);
  return dir;
}

async function audit(stateDir: string, ...args: string[]) {
  const { code, output } = await runCli(["security", "audit", "--json", ...args], { OPENCLAW_STATE_DIR: stateDir, TELEGRAM_BOT_TOKEN: "1:env-token" });
  const report = JSON.parse(output.slice(output.indexOf("{")));
  return { code, report, ids: report.findings.map((f: { id: string }) => f.id) as string[], output };
}

describe("openclaw security audit", () => {
  it("an open DM policy with exec unrestricted is critical, with the fix, and exits 1", async () => {
    const dir = stateWith({ gateway: { mode: "local" }, channels: { telegram: { dmPolicy: "open", allowFrom: ["*"] } } });
    const { code, report, ids } = await audit(dir);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.findings[0]).toMatchObject({ id: "tools.exec.open-to-strangers", severity: "critical", fix: expect.stringContaining("tools.exec.security") });
    expect(ids).toContain("channels.dm-open");
  });

  it("a world-readable config holding a token in clear text: critical permissions, warned secret, secret not printed", async () => {
    const dir = stateWith({ gateway: { mode: "local", auth: { token: "a-literal-token-that-is-long-enough-1234" } } }, 0o644);
    const { code, report, ids, output } = await audit(dir);
    expect(code).toBe(1);
    expect(report.findings.find((f: { id: string }) => f.id === "files.permissions")).toMatchObject({ severity: "critical", fix: expect.stringContaining("chmod 600") });
    expect(ids).toContain("config.literal-secrets");
    expect(output).toContain("gateway.auth.token");
    expect(output).not.toContain("a-literal-token-that-is-long-enough-1234");
  });

  it("a token in clear text in an included file, readable by the group, is found there too; a SecretRef is no clear text", async () => {
    const dir = stateWith({
      gateway: { mode: "local", $include: "./gateway-auth.json" },
      models: { providers: { openai: { apiKey: { source: "env", id: "TELEGRAM_BOT_TOKEN" } } } },
    });
    const included = path.join(dir, "gateway-auth.json");
    fs.writeFileSync(included, JSON.stringify({ auth: { token: "an-included-literal-token-long-enough-5678" } }));
    fs.chmodSync(included, 0o640);
    const { report, output } = await audit(dir);
    expect(report.findings.find((f: { id: string; title: string }) => f.id === "files.permissions" && f.title.includes(included))).toMatchObject({ severity: "warn" });
    const literal = report.findings.find((f: { id: string }) => f.id === "config.literal-secrets");
    expect(literal.title).toContain("1 secret(s) in clear text: gateway.auth.token");
    expect(output).not.toContain("an-included-literal-token-long-enough-5678");
  });

  it("auth none on a LAN bind and a short token are named", async () => {
    const none = await audit(stateWith({ gateway: { mode: "local", bind: "lan", auth: { mode: "none" } } }));
    expect(none.report.findings[0]).toMatchObject({ id: "gateway.auth.none", severity: "critical" });
    const weak = await audit(stateWith({ gateway: { mode: "local", auth: { token: "abc123" } } }), "--deep");
    expect(weak.report.findings.find((f: { id: string }) => f.id === "gateway.auth.weak-token")).toMatchObject({
      severity: "warn",
      title: expect.stringContaining("6 characters"),
    });
    expect(weak.ids).toContain("deep.not-running");
  });

  it("trusted-proxy auth is a critical reminder, with warnings for no allowUsers and for allowLoopback", async () => {
    const proxy = { mode: "local", trustedProxies: ["127.0.0.1"], auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "x-forwarded-user", allowLoopback: true } } };
    const { ids, report } = await audit(stateWith({ gateway: proxy }));
    expect(report.findings.find((f: { id: string }) => f.id === "gateway.trusted_proxy_auth")).toMatchObject({ severity: "critical" });
    expect(ids).toEqual(expect.arrayContaining(["gateway.trusted_proxy_no_allowlist", "gateway.trusted_proxy_loopback"]));
    const narrowed = await audit(stateWith({ gateway: { ...proxy, auth: { ...proxy.auth, trustedProxy: { userHeader: "x-forwarded-user", allowUsers: ["me@example.com"] } } } }));
    expect(narrowed.ids).toContain("gateway.trusted_proxy_auth");
    expect(narrowed.ids).not.toContain("gateway.trusted_proxy_no_allowlist");
    expect(narrowed.ids).not.toContain("gateway.trusted_proxy_loopback");
  });

  it("the text report names each finding's id, as the JSON and docs/cli.md do", async () => {
    const dir = stateWith({ gateway: { mode: "local" }, channels: { telegram: { dmPolicy: "open", allowFrom: ["*"] } } });
    const { output } = await runCli(["security", "audit"], { OPENCLAW_STATE_DIR: dir, TELEGRAM_BOT_TOKEN: "1:env-token" });
    expect(output).toMatch(/^CRITICAL tools\.exec\.open-to-strangers: exec runs any command without approval/m);
    expect(output).toMatch(/^WARN {5}channels\.dm-open: /m);
  });

  it("a Discord account that matches allow-list entries by name is warned about (channels.name-matching)", async () => {
    const named = await audit(
      stateWith({ gateway: { mode: "local" }, channels: { discord: { token: "d", dmPolicy: "allowlist", allowFrom: ["@alice"], dangerouslyAllowNameMatching: true } } }),
    );
    expect(named.ids).toContain("channels.name-matching");
    const byId = await audit(stateWith({ gateway: { mode: "local" }, channels: { discord: { token: "d", dmPolicy: "allowlist", allowFrom: ["123"] } } }));
    expect(byId.ids).not.toContain("channels.name-matching");
  });

  it("exec without approvals behind a pairing policy is a note (tools.exec.no-approvals)", async () => {
    const { report } = await audit(stateWith({ gateway: { mode: "local" }, channels: { telegram: { dmPolicy: "pairing" } } }));
    expect(report.findings.find((f: { id: string }) => f.id === "tools.exec.no-approvals")).toMatchObject({ severity: "info" });
  });

  it("a private, loopback, pairing installation has no critical finding and exits 0", async () => {
    const { code, report } = await audit(stateWith({ gateway: { mode: "local" }, channels: { telegram: { dmPolicy: "pairing" } } }));
    expect(code).toBe(0);
    expect(report.counts.critical).toBe(0);
  });

  it("--deep asks the running gateway: one with a token turns a stranger away, one with auth none does not", async () => {
    const guarded = await startGateway({ configFile: { name: "openclaw.json", content: '{"gateway":{"mode":"local"}}' } });
    try {
      const { ids } = await audit(guarded.stateDir, "--deep");
      expect(ids).not.toContain("deep.ws-open");
      expect(ids).not.toContain("deep.not-running");
    } finally {
      await guarded.stop();
    }
    const open = await startGateway({ token: null, args: ["--auth", "none"] });
    try {
      const { ids, report } = await audit(open.stateDir, "--deep");
      expect(ids).toContain("deep.ws-open");
      expect(report.findings.find((f: { id: string }) => f.id === "deep.ws-open").title).toContain("without credentials");
    } finally {
      await open.stop();
    }
  });

  it("an elevated list with * on a chat channel is critical; webchat's * is not flagged; a long list is warned about", async () => {
    const many = Array.from({ length: 26 }, (_, i) => String(1000 + i));
    const { report, ids } = await audit(
      stateWith({
        gateway: { mode: "local" },
        tools: { elevated: { allowFrom: { telegram: ["*"], webchat: ["*"] } } },
        agents: { entries: { main: { tools: { elevated: { allowFrom: { discord: many } } } } } },
      }),
    );
    expect(report.findings.find((f: { id: string }) => f.id === "tools.elevated.allowFrom.telegram.wildcard")).toMatchObject({
      severity: "critical",
      fix: "list the sender ids in tools.elevated.allowFrom.telegram",
    });
    expect(ids.filter((id) => id.includes("webchat"))).toEqual([]);
    expect(report.findings.find((f: { id: string }) => f.id === "agents.entries.main.tools.elevated.allowFrom.discord.large")).toMatchObject({
      severity: "warn",
      title: expect.stringContaining("lists 26 senders"),
    });
  });

  it("an MCP server over plain HTTP on another machine: critical when it sends headers, a warning without; https and this machine pass", async () => {
    const { report } = await audit(
      stateWith({
        gateway: { mode: "local" },
        mcp: {
          servers: {
            tokened: { url: "http://10.1.2.3:8000/mcp", headers: { Authorization: "Bearer ${MCP_TOKEN}" } },
            open: { url: "http://mcp.example.net/mcp" },
            secure: { url: "https://mcp.example.net/mcp", headers: { Authorization: "Bearer ${MCP_TOKEN}" } },
            local: { url: "http://127.0.0.1:9000/mcp", headers: { Authorization: "Bearer ${MCP_TOKEN}" } },
          },
        },
      }),
    );
    const plain = report.findings.filter((f: { id: string }) => f.id === "mcp.servers.plain-http");
    expect(plain.map((f: { severity: string; title: string }) => [f.severity, f.title.split(":")[0]])).toEqual([
      ["critical", "mcp.servers.tokened"],
      ["warn", "mcp.servers.open"],
    ]);
  });

  it("a browser allowed into the private network is a warning, one without Chromium's sandbox a note; a disabled browser is neither", async () => {
    const { ids, report } = await audit(stateWith({ gateway: { mode: "local" }, browser: { noSandbox: true, ssrfPolicy: { dangerouslyAllowPrivateNetwork: true } } }));
    expect(report.findings.find((f: { id: string }) => f.id === "browser.ssrfPolicy.private-network")).toMatchObject({
      severity: "warn",
      fix: expect.stringContaining("browser.ssrfPolicy.allowedHostnames"),
    });
    expect(report.findings.find((f: { id: string }) => f.id === "browser.no-sandbox")).toMatchObject({ severity: "info" });
    expect(ids.filter((id) => id.startsWith("browser."))).toHaveLength(2);
    const off = await audit(stateWith({ gateway: { mode: "local" }, browser: { enabled: false, noSandbox: true, ssrfPolicy: { allowPrivateNetwork: true } } }));
    expect(off.ids.filter((id) => id.startsWith("browser."))).toEqual([]);
    const narrow = await audit(stateWith({ gateway: { mode: "local" }, browser: { ssrfPolicy: { allowedHostnames: ["intranet.example.com"] } } }));
    expect(narrow.ids.filter((id) => id.startsWith("browser."))).toEqual([]);
  });
});

import os from "node:os";
import path from "node:path";

/** What a service manager needs to run the gateway: the same node, script and state as this CLI. */
export interface ServiceSpec {
  /** Absolute path of the node binary. */
  node: string;
  /** Flags for node itself, before the script (the daemon's V8 flags, read at start-up). */
  nodeArgs?: string[];
  /** Absolute path of the openclaw script. */
  script: string;
  args: string[];
  /** Environment the gateway gets (never a secret: the token stays in the state dir). */
  env: Record<string, string>;
  workingDir: string;
  logFile: string;
  /** The launchd label (default `ai.openclaw.gateway`; launchdLabel() under a profile). */
  label?: string;
  /** Seconds the manager waits after SIGTERM before it kills the gateway (serviceStopTimeoutSec()). */
  stopTimeoutSec: number;
}

export const SYSTEMD_UNIT_NAME = "openclaw-gateway.service";
export const LAUNCHD_LABEL = "ai.openclaw.gateway";

/** The profile the CLI runs under ($OPENCLAW_PROFILE from `--profile` / `--dev`); undefined for the default one. */
function serviceProfile(env: NodeJS.ProcessEnv): string | undefined {
  const profile = env.OPENCLAW_PROFILE?.trim();
  return profile && profile.toLowerCase() !== "default" ? profile : undefined;
}

/** `openclaw-gateway.service`, `openclaw-gateway-<profile>.service` under a profile (as OpenClaw names them), so profiles' services live side by side. */
export function systemdUnitName(env: NodeJS.ProcessEnv): string {
  const profile = serviceProfile(env);
  return profile ? `openclaw-gateway-${profile}.service` : SYSTEMD_UNIT_NAME;
}

/** `ai.openclaw.gateway`, `ai.openclaw.<profile>` under a profile (as OpenClaw names them). */
export function launchdLabel(env: NodeJS.ProcessEnv): string {
  const profile = serviceProfile(env);
  return profile ? `ai.openclaw.${profile}` : LAUNCHD_LABEL;
}

/** Exit code of a gateway refused by its config: restarting cannot help, so the supervisor stops. */
export const EXIT_CONFIG_INVALID = 78;

export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || os.homedir();
}

/** `$XDG_CONFIG_HOME/systemd/user/<systemdUnitName>` (default `~/.config`). */
export function systemdUnitPath(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME?.trim() || path.join(homeDir(env), ".config");
  return path.join(configHome, "systemd", "user", systemdUnitName(env));
}

export function launchdPlistPath(env: NodeJS.ProcessEnv): string {
  return path.join(homeDir(env), "Library", "LaunchAgents", `${launchdLabel(env)}.plist`);
}

// systemd splits ExecStart on spaces and reads quotes and backslashes; quote what needs it.
function systemdQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\])/g, "\\$1").replace(/%/g, "%%")}"`;
}

export function renderSystemdUnit(spec: ServiceSpec): string {
  const env = Object.entries(spec.env).map(([key, value]) => `Environment=${systemdQuote(`${key}=${value}`)}`);
  return [
    "# Written by `openclaw gateway install`; `openclaw gateway uninstall` removes it.",
    "[Unit]",
    "Description=OpenClaw gateway",
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[spec.node, ...(spec.nodeArgs ?? []), spec.script, ...spec.args].map(systemdQuote).join(" ")}`,
    `WorkingDirectory=${systemdQuote(spec.workingDir)}`,
    ...env,
    "Restart=on-failure",
    "RestartSec=5",
    `RestartPreventExitStatus=${EXIT_CONFIG_INVALID}`,
    // SIGTERM lets the gateway drain; it gives up at its own shutdown deadline, before this timeout.
    "KillSignal=SIGTERM",
    `TimeoutStopSec=${spec.stopTimeoutSec}`,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function renderLaunchdPlist(spec: ServiceSpec): string {
  const strings = (values: string[], indent: string) => values.map((v) => `${indent}<string>${xml(v)}</string>`).join("\n");
  const env = Object.entries(spec.env)
    .map(([key, value]) => `      <key>${xml(key)}</key>\n      <string>${xml(value)}</string>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by \`openclaw gateway install\`; \`openclaw gateway uninstall\` removes it. -->
<plist version="1.0">
  <dict>
    <key>Label</key>
    <string>${xml(spec.label ?? LAUNCHD_LABEL)}</string>
    <key>ProgramArguments</key>
    <array>
${strings([spec.node, ...(spec.nodeArgs ?? []), spec.script, ...spec.args], "      ")}
    </array>
    <key>WorkingDirectory</key>
    <string>${xml(spec.workingDir)}</string>
    <key>EnvironmentVariables</key>
    <dict>
${env}
    </dict>
    <key>RunAtLoad</key>
    <true/>
    <key>KeepAlive</key>
    <dict>
      <key>SuccessfulExit</key>
      <false/>
    </dict>
    <key>ThrottleInterval</key>
    <integer>5</integer>
    <key>ExitTimeOut</key>
    <integer>${spec.stopTimeoutSec}</integer>
    <key>StandardOutPath</key>
    <string>${xml(spec.logFile)}</string>
    <key>StandardErrorPath</key>
    <string>${xml(spec.logFile)}</string>
  </dict>
</plist>
`;
}

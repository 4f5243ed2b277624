import { type ClientTarget, resolveClientTarget } from "./client-context.js";
import { CliError } from "./output.js";
import { decodeResumeHandoff, HandoffError, type ResumeHandoff } from "./resume/handoff.js";
import { pickResumeSession } from "./resume/session-picker.js";
import { candidateLine, type ResumeSessionRow, resolveResumeQuery, resumeChoices } from "./resume/session-match.js";
import { openclawCommand } from "./root-options.js";
import { type ConnectHints, connectHints, connectTuiGateway, hasTerminal, runTui, type TuiGateway } from "./tui-command.js";
import { inertText, localeIsUtf8 } from "./tui/terminal-text.js";

export interface ResumeFlags {
  handoff?: string;
  url?: string;
  token?: string;
  password?: string;
  tlsFingerprint?: string;
}

/** The recent sessions offered: the newest 50 active within the last 7 days, as OpenClaw's TUI picker lists them. */
const RECENT_LIMIT = 50;
const RECENT_ACTIVE_MINUTES = 7 * 24 * 60;
/** The TUI's history on start, as `openclaw tui` loads it by default. */
const HISTORY_LIMIT = 200;

const HANDOFF_UNRESOLVED = "Could not resolve the session handoff. Copy a fresh command from the Control UI.";

/**
 * `openclaw resume [query] [--handoff <payload>]` (docs/cli.md#openclaw-resume): picks one of the
 * gateway's recent sessions (by query, by picker, or from a Control UI handoff) and opens the TUI
 * on it, over the same connection. It never starts a gateway. The exit code is the returned one.
 */
export async function resumeCommand(query: string | undefined, flags: ResumeFlags): Promise<number> {
  if (flags.handoff !== undefined && (query !== undefined || flags.url !== undefined)) {
    throw new CliError("--handoff cannot be combined with a positional query or --url: the payload names both the session and the gateway.");
  }
  const handoff = flags.handoff === undefined ? undefined : decodeHandoff(flags.handoff);
  const wanted = query?.trim();
  // Without a query the picker chooses, and it needs the terminal: say so before connecting.
  if (!handoff && !wanted && !hasTerminal()) throw noTerminal();
  const gateway = handoff ? await connectForHandoff(handoff, flags) : await connectTuiGateway(targetOf(flags), connectHints(Boolean(flags.url)));
  let sessionKey: string | undefined;
  try {
    sessionKey = handoff ? await resolveHandoffSession(gateway, handoff) : await chooseRecentSession(gateway, wanted);
  } catch (err) {
    gateway.connection.close();
    throw err;
  }
  if (sessionKey === undefined) {
    gateway.connection.close();
    process.stderr.write("Cancelled.\n");
    return 0;
  }
  if (!hasTerminal()) {
    gateway.connection.close();
    throw noTerminal(sessionKey);
  }
  return runTui(gateway, { sessionKey, deliver: false, historyLimit: HISTORY_LIMIT });
}

function decodeHandoff(payload: string): ResumeHandoff {
  try {
    return decodeResumeHandoff(payload);
  } catch (err) {
    if (err instanceof HandoffError) throw new CliError(err.message);
    throw err;
  }
}

function targetOf(flags: ResumeFlags, env: NodeJS.ProcessEnv = process.env): ClientTarget {
  return resolveClientTarget({ url: flags.url, token: flags.token, password: flags.password, tlsFingerprint: flags.tlsFingerprint }, env);
}

/**
 * A handoff's gateway is the one its URL names. When that URL is exactly the address this
 * profile resolves for its own gateway, the profile's configured credentials and TLS pin are
 * used for it; otherwise only --token, --password and --tls-fingerprint. The shell's
 * OPENCLAW_GATEWAY_TOKEN and OPENCLAW_GATEWAY_PASSWORD are never used: they may be another gateway's.
 */
function connectForHandoff(handoff: ResumeHandoff, flags: ResumeFlags): Promise<TuiGateway> {
  const { OPENCLAW_GATEWAY_TOKEN: _token, OPENCLAW_GATEWAY_PASSWORD: _password, ...env } = process.env;
  const own = targetOf({ ...flags, url: undefined }, env);
  const target = own.url === handoff.gatewayUrl ? own : targetOf({ ...flags, url: handoff.gatewayUrl }, env);
  const hints: ConnectHints = {
    elsewhere: "",
    credentials: "a --handoff connection uses --token and --password, and the config's credentials only when the handoff's URL is exactly this profile's gateway address",
  };
  return connectTuiGateway(target, hints);
}

/** The handoff's session as the gateway names it now; a deleted or stale one is refused, never created. */
async function resolveHandoffSession(gateway: TuiGateway, handoff: ResumeHandoff): Promise<string> {
  const agentId = /^agent:([^:]+):/.exec(handoff.sessionKey)?.[1];
  let answer: { ok?: boolean; key?: string; agentId?: string };
  try {
    answer = await gateway.connection.call("sessions.resolve", { key: handoff.sessionKey, agentId, allowMissing: true });
  } catch {
    throw new CliError(HANDOFF_UNRESOLVED);
  }
  const owner = /^agent:([^:]+):/.exec(answer.key ?? "")?.[1];
  if (answer.ok !== true || !answer.key || answer.agentId !== agentId || owner !== agentId) throw new CliError(HANDOFF_UNRESOLVED);
  return answer.key;
}

/** The session a query names among the recent ones, or the picker's choice; undefined when the picker is cancelled. */
async function chooseRecentSession(gateway: TuiGateway, query: string | undefined): Promise<string | undefined> {
  const answer = await gateway.connection.call<{ sessions?: ResumeSessionRow[] }>("sessions.list", {
    limit: RECENT_LIMIT,
    activeMinutes: RECENT_ACTIVE_MINUTES,
    includeDerivedTitles: true,
    includeLastMessage: true,
  });
  const choices = resumeChoices(answer.sessions ?? []);
  if (!query) {
    if (choices.length === 0) {
      throw new CliError(`No recent sessions found. Run \`${openclawCommand("sessions")}\` to inspect sessions or \`${openclawCommand("tui")}\` to start one.`);
    }
    return pickResumeSession(choices, { stdin: process.stdin, stdout: process.stdout, utf8: localeIsUtf8() });
  }
  const resolution = resolveResumeQuery(choices, query);
  if (resolution.kind === "match") return resolution.choice.key;
  if (resolution.kind === "ambiguous") {
    // Titles and labels are untrusted text: shown inert, as the TUI shows them.
    const lines = resolution.candidates.map((candidate) => `  ${inertText(candidateLine(candidate), localeIsUtf8()).replaceAll("\n", " ")}`);
    throw new CliError([`Session query ${JSON.stringify(query)} is ambiguous. Candidates:`, ...lines, "Use a longer name or the exact session key."].join("\n"));
  }
  throw new CliError(
    `No recent session matched ${JSON.stringify(query)}.\nRun \`${openclawCommand("resume")}\` to choose from recent sessions or \`${openclawCommand("sessions")}\` to inspect all sessions.`,
  );
}

function noTerminal(found?: string): CliError {
  const what = found ? `Found ${found}, but attaching to it` : "Attaching to a session";
  return new CliError(
    `${what} requires an interactive terminal (stdin and stdout a TTY). Re-run \`${openclawCommand("resume [query]")}\` from an interactive terminal; a query (a session key, name or label) picks the session without the picker.`,
  );
}

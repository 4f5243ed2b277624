import { controlUiUrl, resolveControlUiSettings } from "../gateway/http/control-ui/control-ui-settings.js";
import { resolveServerAuthMode } from "../gateway/auth/resolve-auth.js";
import { resolveClientTarget, type ClientFlags } from "./client-context.js";
import { openInBrowser } from "./open-in-browser.js";
import { CliError, printJson } from "./output.js";

/**
 * `openclaw dashboard`: the Control UI's address on this gateway, with the token in `?token=` so
 * the page signs in at once (it keeps the token and removes it from the address bar), printed and
 * opened in the browser (not with `--no-open` or `--json`). Only a gateway in token mode gets its
 * token in the link: with password auth the link has no credential and the page asks for it.
 */
export async function dashboardCommand(flags: Pick<ClientFlags, "url" | "port" | "token" | "json"> & { open?: boolean }): Promise<void> {
  const target = resolveClientTarget(flags);
  let ui;
  try {
    ui = resolveControlUiSettings(target.loaded.config);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!ui.enabled) throw new CliError("the Control UI is disabled (gateway.controlUi.enabled: false); `openclaw config set gateway.controlUi.enabled true` turns it on");
  const ws = new URL(target.url);
  const token = linkToken(target);
  // A gateway reached over wss:// (gateway.tls here, or a remote one behind TLS) serves its page over https.
  const secure = ws.protocol === "wss:" || ws.protocol === "https:";
  const port = Number(ws.port) || (secure ? 443 : 80);
  const url = controlUiUrl(ws.hostname.replace(/^\[|\]$/g, ""), port, ui.basePath, { token, secure });
  if (flags.json) return printJson({ url, authenticated: Boolean(token) });
  process.stdout.write(`${url}\n`);
  if (!token) process.stderr.write(missingTokenNote(target));
  if (flags.open === false) return;
  const outcome = await openInBrowser(url);
  if (outcome.opened) process.stderr.write(`Opened in your browser (${outcome.opener}).\n`);
  else process.stderr.write(`Not opened: ${outcome.reason}. Open the link above in a browser.\n`);
}

type ClientTarget = ReturnType<typeof resolveClientTarget>;

/**
 * The token the link may carry: the local gateway's only when its auth mode is `token`; for a
 * gateway elsewhere (--url, gateway.remote.url) a token held for it, unless a password is too.
 */
function linkToken(target: ClientTarget): string | undefined {
  const { token, password } = target.credentials;
  if (target.kind === "local") return resolveServerAuthMode(target.loaded.config, process.env) === "token" ? token : undefined;
  return password ? undefined : token;
}

function missingTokenNote(target: ClientTarget): string {
  const mode = target.kind === "local" ? resolveServerAuthMode(target.loaded.config, process.env) : undefined;
  if (mode === "password") return "The gateway uses password auth: the page will ask for the password.\n";
  if (mode === "none") return "The gateway has no auth (gateway.auth.mode: none): the page needs no credential.\n";
  if (mode === "trusted-proxy")
    return "The gateway authenticates through your identity-aware proxy (gateway.auth.mode: trusted-proxy): open the dashboard at the proxy's URL, not this one.\n";
  return "No gateway token found here: the page will ask for the gateway's token or password.\n";
}

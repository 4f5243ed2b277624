import { controlUiUrl, resolveControlUiSettings } from "../gateway/http/control-ui/control-ui-settings.js";
import { resolveClientTarget, type ClientFlags } from "./client-context.js";
import { openInBrowser } from "./open-in-browser.js";
import { CliError, printJson } from "./output.js";

/**
 * `openclaw dashboard`: the Control UI's address on this gateway, with the token in `?token=` so
 * the page signs in at once (it keeps the token and removes it from the address bar), printed and
 * opened in the browser (not with `--no-open` or `--json`). With password auth the link has no
 * credential and the page asks for the password.
 */
export async function dashboardCommand(flags: ClientFlags & { open?: boolean }): Promise<void> {
  const target = resolveClientTarget(flags);
  let ui;
  try {
    ui = resolveControlUiSettings(target.loaded.config);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!ui.enabled) throw new CliError("the Control UI is disabled (gateway.controlUi.enabled: false); `openclaw config set gateway.controlUi.enabled true` turns it on");
  const ws = new URL(target.url);
  const token = target.credentials.token;
  const port = Number(ws.port) || (ws.protocol === "wss:" ? 443 : 80);
  const plain = controlUiUrl(ws.hostname.replace(/^\[|\]$/g, ""), port, ui.basePath, token);
  // A gateway reached over wss:// (remote mode behind TLS) serves its page over https.
  const url = ws.protocol === "wss:" ? plain.replace(/^http:/, "https:") : plain;
  if (flags.json) return printJson({ url, authenticated: Boolean(token) });
  process.stdout.write(`${url}\n`);
  if (!token) process.stderr.write("No gateway token found here: the page will ask for the gateway's token or password.\n");
  if (flags.open === false) return;
  const outcome = await openInBrowser(url);
  if (outcome.opened) process.stderr.write(`Opened in your browser (${outcome.opener}).\n`);
  else process.stderr.write(`Not opened: ${outcome.reason}. Open the link above in a browser.\n`);
}

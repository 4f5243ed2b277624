import { resolveControlUiSettings } from "../gateway/http/control-ui/control-ui-settings.js";
import { resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";

/**
 * `openclaw dashboard`: the Control UI's address on this gateway, with the token in `?token=` so
 * the page signs in at once (it keeps the token and removes it from the address bar). With
 * password auth the link has no credential and the page asks for the password.
 */
export function dashboardCommand(flags: ClientFlags): void {
  const target = resolveClientTarget(flags);
  let ui: ReturnType<typeof resolveControlUiSettings>;
  try {
    ui = resolveControlUiSettings(target.loaded.config);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!ui.enabled) throw new CliError("the Control UI is disabled (gateway.controlUi.enabled: false); `openclaw config set gateway.controlUi.enabled true` turns it on");
  const http = new URL(target.url.replace(/^ws/, "http"));
  const base = `${http.origin}${ui.basePath}`;
  const token = target.credentials.token;
  const url = token ? `${base}?token=${encodeURIComponent(token)}` : base;
  if (flags.json) return printJson({ url, authenticated: Boolean(token) });
  process.stdout.write(`${url}\n`);
  if (!token) process.stderr.write("No gateway token found here: the page will ask for the gateway's token or password.\n");
}

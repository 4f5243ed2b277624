import path from "node:path";
import { CONFIG_FILE_NAMES, expandUserPath, PROFILE_NAME_PATTERN, profileStateDir } from "../config/paths.js";

/** The dev profile's gateway port, when $OPENCLAW_GATEWAY_PORT names none. */
export const DEV_GATEWAY_PORT = "19001";

const DEV_AND_PROFILE = "Cannot combine --dev with --profile: --dev is --profile dev; pass one of them";

export type RootOptions = { ok: true; args: string[]; profile: string | undefined; noColor: boolean } | { ok: false; error: string };

/**
 * The global options `--dev`, `--profile <name>` (or `--profile=<name>`) and `--no-color`, taken
 * out of the command line wherever they stand before a `--`, as OpenClaw's CLI reads them; the
 * rest of the line is returned for the command. `--dev` is `--profile dev`. A `--dev` after
 * `gateway` is the gateway command's own flag in OpenClaw (create a dev config), which this
 * gateway does not have: it is refused with the spelling that selects the dev profile.
 */
export function scanRootOptions(args: readonly string[]): RootOptions {
  const rest: string[] = [];
  let profile: string | undefined;
  let sawDev = false;
  let noColor = false;
  let command: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === "--no-color") {
      noColor = true;
    } else if (arg === "--dev") {
      if (command === "gateway") {
        return {
          ok: false,
          error: `--dev after \`gateway\` (OpenClaw's "create a dev config") is not supported here; for the dev profile (state ~/.openclaw-dev, port ${DEV_GATEWAY_PORT}) put it before the command: openclaw --dev gateway …`,
        };
      }
      if (profile !== undefined && profile !== "dev") return { ok: false, error: DEV_AND_PROFILE };
      sawDev = true;
      profile = "dev";
    } else if (arg === "--profile" || arg.startsWith("--profile=")) {
      const inline = arg.startsWith("--profile=");
      const next = args[i + 1];
      const takesNext = !inline && next !== undefined && next !== "--" && !next.startsWith("-");
      const value = (inline ? arg.slice("--profile=".length) : takesNext ? next : "").trim();
      if (takesNext) i += 1;
      if (sawDev) return { ok: false, error: DEV_AND_PROFILE };
      if (!value) return { ok: false, error: "--profile requires a value: a name such as work (its state dir is ~/.openclaw-<name>)" };
      if (!PROFILE_NAME_PATTERN.test(value)) {
        return {
          ok: false,
          error: `Invalid --profile "${value}": use letters, numbers, "_" and "-" only (starting with a letter or number, at most 64), no path separators; the profile's state dir is ~/.openclaw-<name>`,
        };
      }
      profile = value;
    } else {
      if (command === undefined && !arg.startsWith("-") && args[i - 1] !== "--log-level") command = arg;
      rest.push(arg);
    }
  }
  return { ok: true, args: rest, profile, noColor };
}

/**
 * Points this process (and every process it starts) at a profile's state, as OpenClaw does:
 * OPENCLAW_PROFILE is set; OPENCLAW_STATE_DIR becomes the profile's dir unless it was set
 * explicitly to another dir than the inherited profile's own (an explicit dir wins); an
 * OPENCLAW_CONFIG_PATH that named the inherited profile's config file is dropped, so the config
 * is the one in the new state dir (any other explicit path wins); `dev` sets
 * OPENCLAW_GATEWAY_PORT to 19001 unless it is set. The inherited profile is $OPENCLAW_PROFILE
 * (default: `default`, ~/.openclaw).
 */
export function applyProfileEnv(profile: string, env: NodeJS.ProcessEnv): void {
  const inherited = env.OPENCLAW_PROFILE?.trim() || "default";
  const inheritedDir = PROFILE_NAME_PATTERN.test(inherited) ? profileStateDir(inherited, env) : undefined;
  const selectedDir = profileStateDir(profile, env);
  const switches = inheritedDir !== selectedDir;
  const explicitState = env.OPENCLAW_STATE_DIR?.trim() || undefined;
  const explicitConfig = env.OPENCLAW_CONFIG_PATH?.trim() || undefined;
  const stateWasInherited = explicitState !== undefined && switches && expandUserPath(explicitState, env) === inheritedDir;
  const configWasInherited =
    explicitConfig !== undefined &&
    inheritedDir !== undefined &&
    switches &&
    (explicitState === undefined || stateWasInherited) &&
    CONFIG_FILE_NAMES.some((name) => expandUserPath(explicitConfig, env) === path.join(inheritedDir, name));
  env.OPENCLAW_PROFILE = profile;
  if (explicitState === undefined || stateWasInherited) env.OPENCLAW_STATE_DIR = selectedDir;
  if (configWasInherited) delete env.OPENCLAW_CONFIG_PATH;
  if (profile === "dev" && !env.OPENCLAW_GATEWAY_PORT?.trim()) env.OPENCLAW_GATEWAY_PORT = DEV_GATEWAY_PORT;
}

/** `--no-color`: NO_COLOR=1 (and FORCE_COLOR=0) for this process and the ones it starts, as OpenClaw sets them. */
export function applyNoColorEnv(env: NodeJS.ProcessEnv): void {
  env.NO_COLOR = "1";
  env.FORCE_COLOR = "0";
}

/** `openclaw <command>` as the user must type it under this process's profile (`openclaw --dev …`, `openclaw --profile work …`), for hints. */
export function openclawCommand(command: string, env: NodeJS.ProcessEnv = process.env): string {
  const profile = env.OPENCLAW_PROFILE?.trim();
  if (!profile || profile.toLowerCase() === "default") return `openclaw ${command}`;
  return profile === "dev" ? `openclaw --dev ${command}` : `openclaw --profile ${profile} ${command}`;
}

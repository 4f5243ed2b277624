import fs from "node:fs";
import path from "node:path";
import { type AutoTtsMode, isAutoTtsMode } from "../../config/index.js";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";

/** Where `tts.enable`/`tts.disable` keep the gateway's Auto-TTS mode, under the state dir (OpenClaw's preferences shape: `{ "tts": { "auto": … } }`). */
export function autoTtsPreferencePath(stateDir: string): string {
  return path.join(stateDir, "settings", "tts.json");
}

const byStateDir = new Map<string, AutoTtsPreference>();

/**
 * The gateway-wide Auto-TTS mode set by `tts.enable` (`always`) and `tts.disable` (`off`): over
 * `tts.auto`, under a chat's own `/tts on|off`. Read from disk once, then kept in memory, so
 * asking it for every reply costs nothing; a change is written (atomically, 0600) before it is
 * acknowledged. One per state dir, shared by the gateway methods and the channels.
 */
export class AutoTtsPreference {
  static forStateDir(stateDir: string): AutoTtsPreference {
    let preference = byStateDir.get(stateDir);
    if (!preference) byStateDir.set(stateDir, (preference = new AutoTtsPreference(autoTtsPreferencePath(stateDir))));
    return preference;
  }

  private loaded = false;
  private value: AutoTtsMode | undefined;

  private constructor(readonly file: string) {}

  /** The stored mode, or undefined when none was set (or the file is unreadable: then the config decides). */
  mode(): AutoTtsMode | undefined {
    if (!this.loaded) {
      this.value = readMode(this.file);
      this.loaded = true;
    }
    return this.value;
  }

  set(mode: AutoTtsMode): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.file, `${JSON.stringify({ tts: { auto: mode } }, null, 2)}\n`);
    this.value = mode;
    this.loaded = true;
  }
}

/** `tts.auto` from the file, or OpenClaw's older `tts.enabled` boolean as always/off. */
function readMode(file: string): AutoTtsMode | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { tts?: { auto?: unknown; enabled?: unknown } };
    if (isAutoTtsMode(parsed.tts?.auto)) return parsed.tts.auto;
    if (typeof parsed.tts?.enabled === "boolean") return parsed.tts.enabled ? "always" : "off";
  } catch {
    // Missing or unreadable: no preference, the config decides.
  }
  return undefined;
}

import { spawn } from "node:child_process";
import path from "node:path";
import { buildExecEnv } from "../tools/exec-env.js";
import type { MediaFile } from "./media-file.js";

/** The result is text: a command printing more than this is stopped. */
const MAX_STDOUT_BYTES = 5 * 1024 * 1024;

/**
 * Runs a local media command (a transcriber such as whisper, an image describer) without a shell:
 * each argument has its `{{AttachmentPath}}`, `{{AttachmentDir}}`, `{{AttachmentContentType}}`,
 * `{{Language}}` and `{{Prompt}}` (and the older `{{MediaPath}}`, `{{MediaDir}}`, `{{MediaType}}`)
 * filled in; what it prints is the result. It runs with the gateway's environment less its secrets
 * (API keys, tokens), as exec's commands do. A non-zero exit, a signal or the abort rejects, naming the command.
 */
export function runMediaCommand(file: MediaFile, attempt: { command: string; args: string[]; language?: string; prompt?: string }, signal: AbortSignal): Promise<string> {
  const values: Record<string, string> = {
    AttachmentPath: file.path,
    MediaPath: file.path,
    AttachmentDir: path.dirname(file.path),
    MediaDir: path.dirname(file.path),
    AttachmentContentType: file.mimeType ?? "",
    MediaType: file.mimeType ?? "",
    Language: attempt.language ?? "",
    Prompt: attempt.prompt ?? "",
  };
  const args = attempt.args.map((arg) => arg.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole));
  return new Promise((resolve, reject) => {
    // The gateway's secrets stay out of it, as out of exec's commands.
    const child = spawn(attempt.command, args, { stdio: ["ignore", "pipe", "pipe"], signal, killSignal: "SIGKILL", env: buildExecEnv() });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errText = "";
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_STDOUT_BYTES) child.kill("SIGKILL");
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (errText.length < 2_000) errText += chunk.toString("utf8");
    });
    child.on("error", (error) =>
      reject(new Error((error as NodeJS.ErrnoException).code === "ENOENT" ? `${attempt.command} was not found (install it, or name its full path)` : error.message)),
    );
    child.on("close", (code, killedBy) => {
      if (outBytes > MAX_STDOUT_BYTES) return reject(new Error(`${attempt.command} printed more than 5 MB`));
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const last = errText.trim().split("\n").at(-1)?.slice(0, 200);
      reject(new Error(`${attempt.command} ${killedBy ? `was stopped (${killedBy})` : `exited with ${code}`}${last ? `: ${last}` : ""}`));
    });
  });
}

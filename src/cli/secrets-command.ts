import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { printJson } from "./output.js";

interface SecretsReloadAnswer {
  ok: boolean;
  warningCount: number;
  applied: boolean;
  changedPaths: string[];
  restartRequiredPaths: string[];
}

/** `openclaw secrets reload`: the running gateway reads its SecretRefs again (secrets.reload). */
export async function secretsReloadCommand(flags: ClientFlags): Promise<void> {
  const client = await connectClient(flags);
  try {
    const answer = (await client.call("secrets.reload", {}, { timeoutMs: resolveClientTarget(flags).timeoutMs })) as SecretsReloadAnswer;
    if (flags.json) return printJson(answer);
    const lines = [answer.warningCount > 0 ? `Secrets reloaded with ${answer.warningCount} warning(s).` : "Secrets reloaded."];
    if (answer.changedPaths.length === 0) lines.push("No secret changed.");
    else if (!answer.applied) lines.push(`Changed, applied at the next restart (hot reload is off): ${answer.changedPaths.join(", ")}`);
    else lines.push(`Changed: ${answer.changedPaths.join(", ")}`);
    if (answer.applied && answer.restartRequiredPaths.length > 0) lines.push(`Applied at the next restart: ${answer.restartRequiredPaths.join(", ")}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    client.close();
  }
}

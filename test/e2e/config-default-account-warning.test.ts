import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw config validate` warns when `channels.<c>.defaultAccount` names an account the config
 * alone shows will not run (disabled, the same bot token as an account before it by id, or no
 * token of its own beside a top-level bot): sends that name no account would fail on it.
 */

const FIX = "a send, agent turn or cron announcement that names no account would fail on it: point defaultAccount at an account that runs, or fix that account";

async function validate(telegram: Record<string, unknown>): ReturnType<typeof runCli> {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ channels: { telegram } }));
  return runCli(["config", "validate"], { OPENCLAW_STATE_DIR: stateDir });
}

describe("config validate and a default account that will not run", () => {
  it("warns, naming the account, why and the fix; a default account that runs gives no warning", { timeout: 30_000 }, async () => {
    const disabled = await validate({ defaultAccount: "work", accounts: { work: { botToken: "1:w", enabled: false }, home: { botToken: "2:h" } } });
    expect(disabled.code).toBe(0);
    expect(disabled.output).toContain(`warning: channels.telegram.defaultAccount names "work", which will not run: it is disabled (enabled: false); ${FIX}`);

    const duplicate = await validate({ defaultAccount: "work", accounts: { work: { botToken: "1:same" }, alpha: { botToken: "1:same" } } });
    expect(duplicate.code).toBe(0);
    expect(duplicate.output).toContain(
      `warning: channels.telegram.defaultAccount names "work", which will not run: channels.telegram.accounts.work has the same botToken as the account "alpha", which runs that bot; ${FIX}`,
    );
    expect(duplicate.output).not.toContain("1:same");

    const inherits = await validate({ botToken: "1:top", defaultAccount: "work", accounts: { work: { dmPolicy: "open" } } });
    expect(inherits.output).toContain(
      `warning: channels.telegram.defaultAccount names "work", which will not run: channels.telegram.accounts.work sets no botToken or tokenFile, so it would run the same bot as the account "default" (the top-level botToken or tokenFile); give it its own botToken or tokenFile; ${FIX}`,
    );

    const runs = await validate({ defaultAccount: "alpha", accounts: { work: { botToken: "1:same" }, alpha: { botToken: "1:same" } } });
    expect(runs.code).toBe(0);
    expect(runs.output).not.toContain("warning:");
  });
});

import type { Command } from "commander";

/** OpenClaw's backup commands this gateway does not have, and what to use instead. */
const NOT_SUPPORTED: Record<string, string> = {
  sqlite: "this gateway has no per-database snapshot repositories; `openclaw backup create` snapshots every SQLite database into its archive",
  git: "this gateway keeps no Git backup repositories; use `openclaw backup create` (and your own copy of the archive)",
  enable: "this gateway schedules no backups; run `openclaw backup create` from cron or a systemd timer",
  disable: "this gateway schedules no backups, so there is none to disable",
};

/**
 * `openclaw backup create|verify|restore`: OpenClaw's archive commands, working on this machine's
 * state dir, config and workspaces (no gateway needed; a running one keeps running). OpenClaw's
 * `backup sqlite|git|enable|disable` are registered only to refuse, naming what to use instead.
 */
export function registerBackupCommands(program: Command): void {
  const backup = program.command("backup").description("archive the state dir, config and workspaces; verify and restore an archive");

  backup
    .command("create")
    .description("write a .tar.gz of the state dir, config and workspaces (mode 0600); SQLite databases as online snapshots")
    .option("--output <dir|file>", "folder for the timestamped archive, or the archive's path (default: the current folder; home when that is backed up)")
    .option("--dry-run", "list what would go in (paths and sizes) and write nothing")
    .option("--verify", "verify the archive right after writing it, as backup verify does")
    .option("--no-include-workspace", "leave the agents' workspaces out (state and config only)")
    .option("--only-config", "only the config file, as it is written (not its $include files)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { backupCreateCommand } = await import("./backup-create-command.js");
      await backupCreateCommand(opts);
    });

  backup
    .command("verify <archive>")
    .description("check an archive: one root manifest, safe paths, every entry's size and SHA-256, SQLite integrity (exit 1 with the reason)")
    .option("--json", "print JSON")
    .action(async (archive: string, opts) => {
      const { backupVerifyCommand } = await import("./backup-verify-command.js");
      await backupVerifyCommand(archive, opts);
    });

  backup
    .command("restore <archive>")
    .description("verify an archive, then restore it into a new or empty folder (never over the live state dir)")
    .option("--target <dir>", "the folder to restore into: new, or empty (required)")
    .option("--json", "print JSON")
    .action(async (archive: string, opts) => {
      const { backupRestoreCommand } = await import("./backup-restore-command.js");
      await backupRestoreCommand(archive, opts);
    });

  for (const [name, why] of Object.entries(NOT_SUPPORTED)) {
    backup
      .command(name)
      .description(`OpenClaw's backup ${name}: not supported here (refused)`)
      .argument("[args...]")
      .allowUnknownOption()
      .helpOption(false)
      .action(async () => {
        const { CliError } = await import("../output.js");
        throw new CliError(`backup ${name} is not supported: ${why}`);
      });
  }
}

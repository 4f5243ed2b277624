import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import Database from "better-sqlite3";
import { extract, type Headers, pack } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { CLI, cleanEnv, makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `openclaw backup create|verify|restore` with the real CLI against the state of a real gateway
 * that is running while the archive is taken: its config (with a `${VAR}` that must stay one),
 * a transcript and the traces database a turn wrote, and a workspace outside the state dir.
 * Tampered archives fail verification with the reason; a restored state dir runs a gateway that
 * lists the session; the refusals leave everything as it was.
 */

const SECRET = "sk-backup-secret-7f3a";
const workspace = makeTempDir("openclaw-backup-ws-");
const fakes = useFakeModelGateway({
  operator: true,
  env: { BACKUP_FAKE_KEY: SECRET },
  configure: (config) => {
    config.agents.defaults.workspace = workspace;
    config.agents.defaults.skipBootstrap = true;
    config.models.providers.fake.apiKey = "${BACKUP_FAKE_KEY}";
  },
});

const SESSION = "agent:main:backup-test";
let transcript: string;
/** A database another process is writing: its rows are only in its `-wal` (no checkpoint) while the archive is taken. */
let liveWriter: Database.Database;
const extraDir = () => path.join(fakes.stateDir, "backup-test");

/** Runs the CLI to its end, in `cwd`, with stdout and stderr apart. */
function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = cleanEnv({ OPENCLAW_STATE_DIR: fakes.stateDir, BACKUP_FAKE_KEY: SECRET, ...opts.env });
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? makeTempDir(), env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

interface TarEntry {
  header: Headers;
  body: Buffer;
}

async function readTar(file: string): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const tar = extract();
  tar.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      entries.push({ header, body: Buffer.concat(chunks) });
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    tar.on("finish", resolve);
    tar.on("error", reject);
    tar.end(zlib.gunzipSync(fs.readFileSync(file)));
  });
  return entries;
}

async function writeTar(file: string, entries: TarEntry[]): Promise<void> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => tar.on("end", resolve));
  for (const { header, body } of entries) await new Promise<void>((resolve, reject) => tar.entry({ ...header }, body, (err) => (err ? reject(err) : resolve())));
  tar.finalize();
  await ended;
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(chunks)));
}

/** A copy of `archive` with its entries changed by `change`. */
async function tampered(archive: string, change: (entries: TarEntry[], root: string) => TarEntry[]): Promise<string> {
  const entries = await readTar(archive);
  const root = entries[0]!.header.name.split("/")[0]!;
  const copy = path.join(makeTempDir("openclaw-backup-tampered-"), path.basename(archive));
  await writeTar(copy, change(entries, root));
  return copy;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => path.join(dir, name));
}

beforeAll(async () => {
  fs.writeFileSync(path.join(workspace, "NOTES.md"), "The lighthouse keeper's notes.\n");
  fs.mkdirSync(path.join(workspace, "links"));
  fs.symlinkSync("../NOTES.md", path.join(workspace, "links", "notes-link.md"));
  fs.mkdirSync(extraDir());
  fs.writeFileSync(path.join(extraDir(), "torn.jsonl"), '{"n":1}\n{"n":2}\n{"n":');
  liveWriter = new Database(path.join(extraDir(), "live.sqlite"));
  liveWriter.pragma("journal_mode = WAL");
  liveWriter.pragma("wal_autocheckpoint = 0");
  liveWriter.exec("CREATE TABLE rows (n INTEGER)");
  const insert = liveWriter.prepare("INSERT INTO rows (n) VALUES (?)");
  for (let n = 0; n < 100; n++) insert.run(n);
  const env = { OPENCLAW_STATE_DIR: fakes.stateDir, OPENCLAW_GATEWAY_TOKEN: fakes.gw.token!, OPENCLAW_GATEWAY_PORT: String(fakes.gw.port), BACKUP_FAKE_KEY: SECRET };
  const turn = await runCli(["agent", "-m", "remember the lighthouse", "--session-key", SESSION], env, 60_000);
  expect(turn.code, turn.output).toBe(0);
  transcript = (await fakes.sock.request("sessions.describe", { key: SESSION })).payload.session.sessionFile;
  // The gateway writes a run's trace shortly after the run ends.
  const traces = path.join(fakes.stateDir, "traces", "traces.sqlite");
  await waitUntil(
    () => {
      if (!fs.existsSync(traces)) return false;
      const db = new Database(traces, { readonly: true, fileMustExist: true });
      try {
        const created = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'traces'").get();
        return created !== undefined && (db.prepare("SELECT count(*) AS n FROM traces WHERE session_key = ?").get(SESSION) as { n: number }).n > 0;
      } finally {
        db.close();
      }
    },
    15_000,
    "the turn's trace",
  );
}, 90_000);

describe("openclaw backup create --dry-run", { timeout: 60_000 }, () => {
  it("lists the files it would take, with their sizes, and writes nothing", async () => {
    const out = makeTempDir("openclaw-backup-out-");
    const cwd = makeTempDir("openclaw-backup-cwd-");
    const json = await cli(["backup", "create", "--dry-run", "--output", out, "--json"], { cwd });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ ok: true, dryRun: true });
    const byPath = new Map(report.entries.map((e: { sourcePath: string }) => [e.sourcePath, e]));
    const stateReal = fs.realpathSync(fakes.stateDir);
    expect(byPath.get(path.join(stateReal, "traces", "traces.sqlite"))).toMatchObject({ type: "file", capture: "sqlite", archivePath: "payload/state/traces/traces.sqlite" });
    expect(byPath.get(fs.realpathSync(transcript))).toMatchObject({ capture: "jsonl", size: fs.statSync(transcript).size });
    expect(byPath.get(path.join(fs.realpathSync(workspace), "NOTES.md"))).toMatchObject({ archivePath: "payload/workspaces/main/NOTES.md", size: 31 });
    expect(report.entries.some((e: { archivePath: string }) => /-(wal|shm)$/.test(e.archivePath) || e.archivePath.endsWith("gateway.lock"))).toBe(false);
    expect(report.skipped).toEqual(expect.arrayContaining([{ sourcePath: path.join(stateReal, "gateway.lock"), reason: "the running gateway's lock" }]));
    const liveWal = path.join(stateReal, "backup-test", "live.sqlite-wal");
    expect(report.skipped).toContainEqual({ sourcePath: liveWal, reason: "SQLite wal file (the database's snapshot holds its committed data)" });

    const text = await cli(["backup", "create", "--dry-run", "--output", out], { cwd });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Dry run: nothing was written\. The archive would be .*openclaw-backup\.tar\.gz \(mode 0600/);
    expect(text.stdout).toContain(`${path.join(stateReal, "traces", "traces.sqlite")} (SQLite: online snapshot)`);
    expect(text.stdout).toMatch(/31 B +\S*NOTES\.md/);
    expect(fs.readdirSync(out)).toEqual([]);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it("--no-include-workspace leaves the workspace out; --only-config takes the config file alone", async () => {
    const without = JSON.parse((await cli(["backup", "create", "--dry-run", "--no-include-workspace", "--json"])).stdout);
    expect(without.entries.some((e: { archivePath: string }) => e.archivePath.startsWith("payload/workspaces/"))).toBe(false);
    expect(without.workspaces).toEqual([{ agents: ["main"], sourcePath: fs.realpathSync(workspace), archivePath: null, excluded: "--no-include-workspace" }]);
    expect(without.entries.some((e: { archivePath: string }) => e.archivePath === "payload/state/traces/traces.sqlite")).toBe(true);

    const only = JSON.parse((await cli(["backup", "create", "--dry-run", "--only-config", "--json"])).stdout);
    expect(only.entries.map((e: { archivePath: string }) => e.archivePath)).toEqual(["payload/state/openclaw.json"]);
  });
});

describe("openclaw backup create, verify and restore", { timeout: 120_000 }, () => {
  let archive: string;

  it("creates a 0600 archive while the gateway runs and verifies it (--verify), the config as written", async () => {
    const out = makeTempDir("openclaw-backup-out-");
    const result = await cli(["backup", "create", "--output", out, "--verify", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    archive = report.archivePath;
    expect(path.dirname(archive)).toBe(out);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(report).toMatchObject({ ok: true, mode: "0600" });
    expect(report.sqliteSnapshots).toContain("payload/state/traces/traces.sqlite");
    expect(report.verified.sqliteChecked).toContain("payload/state/traces/traces.sqlite");
    expect(fs.readdirSync(out)).toEqual([path.basename(archive)]);

    const entries = await readTar(archive);
    const root = report.archiveRoot;
    expect(entries.filter((e) => e.header.name.endsWith("/manifest.json") && e.header.name.split("/").length === 2).map((e) => e.header.name)).toEqual([`${root}/manifest.json`]);
    const manifest = JSON.parse(entries.find((e) => e.header.name === `${root}/manifest.json`)!.body.toString());
    expect(manifest).toMatchObject({ schemaVersion: 1, gatewayVersion: expect.any(String), paths: { stateDir: fakes.stateDir } });
    expect(manifest.workspaces).toEqual([{ agents: ["main"], sourcePath: fs.realpathSync(workspace), archivePath: "payload/workspaces/main" }]);
    const config = entries.find((e) => e.header.name === `${root}/payload/state/openclaw.json`)!;
    expect(config.body.equals(fs.readFileSync(path.join(fakes.stateDir, "openclaw.json")))).toBe(true);
    expect(config.body.toString()).toContain("${BACKUP_FAKE_KEY}");
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(JSON.stringify(manifest)).not.toContain(SECRET);
  });

  it("verify passes the archive, with its SQLite snapshots", async () => {
    const text = await cli(["backup", "verify", archive]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Archive OK: /);
    expect(text.stdout).toContain("pass integrity_check: ");
    const json = JSON.parse((await cli(["backup", "verify", archive, "--json"])).stdout);
    expect(json).toMatchObject({ ok: true, sqliteChecked: expect.arrayContaining(["payload/state/traces/traces.sqlite"]) });
  });

  it("verify fails a tampered archive, with the reason", async () => {
    const expectRefused = async (file: string, reason: string | RegExp) => {
      const result = await cli(["backup", "verify", file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(typeof reason === "string" ? new RegExp(`failed verification: ${reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) : reason);
    };
    const changedByte = await tampered(archive, (entries) =>
      entries.map((e) => (e.header.name.endsWith("/NOTES.md") ? { ...e, body: Buffer.from(e.body.toString().replace("lighthouse", "lightHouse")) } : e)),
    );
    await expectRefused(changedByte, "sha256 mismatch: payload/workspaces/main/NOTES.md");

    const escaping = await tampered(archive, (entries, root) => [...entries, { header: { name: `${root}/../escaped.txt`, type: "file", mode: 0o644 }, body: Buffer.from("x") }]);
    await expectRefused(escaping, "path traversal in entry: ");

    const transcriptEntry = `payload/state/agents/main/sessions/${path.basename(transcript)}`;
    const missing = await tampered(archive, (entries, root) => entries.filter((e) => e.header.name !== `${root}/${transcriptEntry}`));
    await expectRefused(missing, `missing from the archive: ${transcriptEntry}`);

    const linkOut = await tampered(archive, (entries, root) => {
      const manifestEntry = entries.find((e) => e.header.name === `${root}/manifest.json`)!;
      const manifest = JSON.parse(manifestEntry.body.toString());
      manifest.entries.push({ type: "symlink", archivePath: "payload/workspaces/main/evil", sourcePath: "/x", target: "../../../../etc" });
      const link = { header: { name: `${root}/payload/workspaces/main/evil`, type: "symlink" as const, linkname: "../../../../etc" }, body: Buffer.alloc(0) };
      return [...entries.filter((e) => e !== manifestEntry), link, { ...manifestEntry, body: Buffer.from(JSON.stringify(manifest)) }];
    });
    await expectRefused(linkOut, "symbolic link escapes its folder: payload/workspaces/main/evil -> ../../../../etc");

    const twoManifests = await tampered(archive, (entries, root) => [...entries, entries.find((e) => e.header.name === `${root}/manifest.json`)!]);
    await expectRefused(twoManifests, "duplicate entry: ");

    const corrupt = path.join(makeTempDir("openclaw-backup-tampered-"), "corrupt.tar.gz");
    const bytes = fs.readFileSync(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(corrupt, bytes);
    await expectRefused(corrupt, /failed verification: /);

    const restoredFromBad = path.join(makeTempDir("openclaw-backup-restore-"), "target");
    const refused = await cli(["backup", "restore", changedByte, "--target", restoredFromBad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("sha256 mismatch");
    expect(fs.existsSync(restoredFromBad)).toBe(false);
    expect(fs.readdirSync(path.dirname(restoredFromBad))).toEqual([]);
  });

  it("restore reproduces the files, and a gateway on the restored state dir lists the session", async () => {
    const target = path.join(makeTempDir("openclaw-backup-restore-"), "restored");
    const result = await cli(["backup", "restore", archive, "--target", target]);
    expect(result.code, result.stderr).toBe(0);
    const stateDir = path.join(target, "state");
    expect(result.stdout).toContain(`OPENCLAW_STATE_DIR=${stateDir} openclaw gateway run`);
    expect(result.stdout).toContain(`workspace  ${path.join(target, "workspaces", "main")}`);

    expect(fs.readFileSync(path.join(stateDir, "openclaw.json")).equals(fs.readFileSync(path.join(fakes.stateDir, "openclaw.json")))).toBe(true);
    const restoredTranscript = path.join(stateDir, "agents", "main", "sessions", path.basename(transcript));
    // Up to its last complete line as the archive took it: the live file may only have grown since.
    const restoredLines = fs.readFileSync(restoredTranscript, "utf8");
    expect(restoredLines).toContain("remember the lighthouse");
    expect(restoredLines.endsWith("\n")).toBe(true);
    expect(fs.readFileSync(transcript, "utf8").startsWith(restoredLines)).toBe(true);
    expect(fs.statSync(restoredTranscript).mtimeMs).toBeLessThanOrEqual(fs.statSync(transcript).mtimeMs);
    expect(fs.readFileSync(path.join(target, "workspaces", "main", "NOTES.md"), "utf8")).toBe("The lighthouse keeper's notes.\n");
    expect(fs.readlinkSync(path.join(target, "workspaces", "main", "links", "notes-link.md"))).toBe("../NOTES.md");
    const token = path.join(stateDir, "credentials", "gateway.token");
    if (fs.existsSync(path.join(fakes.stateDir, "credentials", "gateway.token"))) expect(fs.statSync(token).mode & 0o777).toBe(0o600);
    expect(filesUnder(stateDir).filter((f) => /-(wal|shm|journal)$/.test(f) || /gateway\.(lock|pid)/.test(f))).toEqual([]);

    expect(fs.readFileSync(path.join(stateDir, "backup-test", "torn.jsonl"), "utf8")).toBe('{"n":1}\n{"n":2}\n');
    const live = new Database(path.join(stateDir, "backup-test", "live.sqlite"), { readonly: true, fileMustExist: true });
    try {
      expect(live.prepare("SELECT count(*) AS n FROM rows").get()).toEqual({ n: 100 });
    } finally {
      live.close();
    }
    const db = new Database(path.join(stateDir, "traces", "traces.sqlite"), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT session_key AS sessionKey, outcome FROM traces WHERE session_key = ?").get(SESSION);
      expect(row).toEqual({ sessionKey: SESSION, outcome: "ok" });
    } finally {
      db.close();
    }

    const gw = await startGateway({ stateDir, env: { BACKUP_FAKE_KEY: SECRET } });
    try {
      const listed = await runCli(["sessions", "--json"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token!, OPENCLAW_GATEWAY_PORT: String(gw.port) });
      expect(listed.code, listed.output).toBe(0);
      expect(JSON.parse(listed.output).sessions.map((s: { key: string }) => s.key)).toContain(SESSION);
    } finally {
      await gw.stop();
    }
  });

  it("refuses an existing output file, an output inside the state dir, and a non-empty or live target", async () => {
    const before = fs.readFileSync(archive);
    const existing = await cli(["backup", "create", "--output", archive]);
    expect(existing.code).toBe(1);
    expect(existing.stderr).toBe(`openclaw: ${archive} already exists: a backup never overwrites a file; choose another --output\n`);
    expect(fs.readFileSync(archive).equals(before)).toBe(true);

    const inside = path.join(fakes.stateDir, "backups");
    const insideState = await cli(["backup", "create", "--output", `${inside}/`]);
    expect(insideState.code).toBe(1);
    expect(insideState.stderr).toMatch(/^openclaw: --output \S+ is inside \S+, which is backed up \(the archive would be read into itself\)/);
    expect(fs.existsSync(inside)).toBe(false);

    const target = makeTempDir("openclaw-backup-restore-");
    fs.writeFileSync(path.join(target, "keep.txt"), "mine");
    const nonEmpty = await cli(["backup", "restore", archive, "--target", target]);
    expect(nonEmpty.code).toBe(1);
    expect(nonEmpty.stderr).toContain(`--target ${target} is not empty`);
    expect(fs.readdirSync(target)).toEqual(["keep.txt"]);

    const live = await cli(["backup", "restore", archive, "--target", path.join(fakes.stateDir, "restored"), "--json"]);
    expect(live.code).toBe(1);
    expect(JSON.parse(live.stdout).error.message).toContain("is inside the live state dir");
    expect(fs.existsSync(path.join(fakes.stateDir, "restored"))).toBe(false);
  });

  it("without --output writes a timestamped archive in the current folder, or home when that is inside the state dir", async () => {
    const home = makeTempDir("openclaw-backup-home-");
    const cwd = makeTempDir("openclaw-backup-cwd-");
    const here = await cli(["backup", "create", "--only-config"], { cwd, env: { HOME: home } });
    expect(here.code, here.stderr).toBe(0);
    expect(fs.readdirSync(cwd)).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}[+-]\d\d-\d\d-openclaw-backup\.tar\.gz$/)]);
    expect(here.stdout).toContain("mode 0600: it holds your credentials");

    const fromState = await cli(["backup", "create", "--no-include-workspace"], { cwd: path.join(fakes.stateDir, "agents"), env: { HOME: home } });
    expect(fromState.code, fromState.stderr).toBe(0);
    const [name] = fs.readdirSync(home);
    expect(name).toMatch(/-openclaw-backup\.tar\.gz$/);
    expect(fs.statSync(path.join(home, name!)).mode & 0o777).toBe(0o600);
    expect((await cli(["backup", "verify", path.join(home, name!)])).code).toBe(0);
  });

  it("leaves OpenClaw's sqlite, git and schedule commands refused", async () => {
    const sqlite = await cli(["backup", "sqlite", "create", "--global", "--repository", makeTempDir()]);
    expect(sqlite.code).toBe(1);
    expect(sqlite.stderr).toMatch(/^openclaw: backup sqlite is not supported: /);
    const enable = await cli(["backup", "enable", "--every", "24h"]);
    expect(enable.code).toBe(1);
    expect(enable.stderr).toMatch(/^openclaw: backup enable is not supported: /);
  });
});

afterAll(() => {
  liveWriter?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

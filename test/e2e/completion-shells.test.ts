import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

// Each script runs in its real shell (bash, fish and zsh are installed by .ci/run).
const scripts: Record<"bash" | "zsh" | "fish", string> = { bash: "", zsh: "", fish: "" };
const files: Record<"bash" | "zsh" | "fish", string> = { bash: "", zsh: "", fish: "" };
beforeAll(async () => {
  const dir = makeTempDir("openclaw-completion-");
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const { code, output } = await runCli(["completion", shell], {});
    expect(code).toBe(0);
    scripts[shell] = output;
    files[shell] = path.join(dir, `openclaw.${shell}`);
    fs.writeFileSync(files[shell], output);
  }
}, 60_000);

const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The shell's output; anything on stderr (a syntax error, an unknown command) fails the test. */
function run(shell: string, args: string[], cwd?: string): string {
  const result = spawnSync(shell, args, { encoding: "utf8", cwd, env: { PATH: process.env.PATH, HOME: makeTempDir("openclaw-completion-home-") } });
  if (result.status !== 0 || result.stderr) throw new Error(`${shell} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** A directory holding one file, for flags whose value is a path. */
const withOneFile = () => {
  const dir = makeTempDir("openclaw-completion-cwd-");
  fs.writeFileSync(path.join(dir, "token.txt"), "secret\n");
  return dir;
};

/** What bash offers for the last of `words` (the word being completed, "" for a new one). */
function bash(...words: string[]): string[] {
  const line = `source ${quoted(files.bash)}\nCOMP_WORDS=(${words.map(quoted).join(" ")}); COMP_CWORD=${words.length - 1}; _openclaw_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return run("bash", ["-c", line], withOneFile()).split("\n").filter(Boolean);
}

/** What fish offers for the command line `line` (cursor at its end), without descriptions. */
function fish(line: string): string[] {
  return run("fish", ["-c", `source ${quoted(files.fish)}; complete -C ${quoted(line)}`], withOneFile())
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.split("\t")[0]!);
}

/**
 * What zsh's `_openclaw` hands to the completion system for `words` (the last is the word being
 * completed): the real function in real zsh, with compadd and _describe (which exist only inside a
 * completion widget) replaced by functions that print what they were given.
 */
function zsh(...words: string[]): string[] {
  const stubs = [
    `compadd() { while [[ "$1" == -* && "$1" != -- ]]; do [[ "$1" == -[PSX] ]] && shift; shift; done; [[ "$1" == -- ]] && shift; print -l -- "$@"; }`,
    `_describe() { local entry; for entry in "\${(@P)2}"; do print -- "\${entry%%:*}"; done; }`,
    `compset() { return 0; }`,
    `compdef() { :; }`,
    `_files() { print -- '(files)'; }`,
  ].join("\n");
  // _openclaw's status only says whether it added anything.
  const line = `${stubs}\nsource ${quoted(files.zsh)}\nwords=(${words.map(quoted).join(" ")}); CURRENT=${words.length}; _openclaw; true`;
  return run("zsh", ["-f", "-c", line]).split("\n").filter(Boolean);
}

const BIND_MODES = ["loopback", "lan", "auto", "tailnet", "custom"];

describe("openclaw completion bash", () => {
  it("completes subcommands and options by command path", () => {
    expect(bash("openclaw", "gat")).toEqual(["gateway"]);
    expect(bash("openclaw", "gateway", "in")).toEqual(["install"]);
    expect(bash("openclaw", "doctor", "--f")).toEqual(["--fix"]);
    expect(bash("openclaw", "security", "")).toEqual(["audit", "--help"]);
    // A flag's value is not a command word: the path after it is still found.
    expect(bash("openclaw", "--log-level", "debug", "gateway", "in")).toEqual(["install"]);
    expect(bash("openclaw", "resu")).toEqual(["resume"]);
    expect(bash("openclaw", "resume", "--")).toEqual(["--handoff", "--url", "--token", "--password", "--tls-fingerprint", "--help"]);
    expect(bash("openclaw", "tui", "--tl")).toEqual(["--tls-fingerprint"]);
  });

  it("offers the values of a flag with a fixed set, and nothing for a free-form value", () => {
    expect(bash("openclaw", "gateway", "run", "--bind", "")).toEqual(BIND_MODES);
    expect(bash("openclaw", "gateway", "run", "--bind", "t")).toEqual(["tailnet"]);
    expect(bash("openclaw", "gateway", "start", "--auth", "")).toEqual(["none", "token", "password"]);
    expect(bash("openclaw", "logs", "--level", "w")).toEqual(["warn"]);
    expect(bash("openclaw", "--log-level", "")).toEqual(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
    // `--bind=lan` (bash splits it at "=") completes the same way.
    expect(bash("openclaw", "gateway", "run", "--bind", "=", "ta")).toEqual(["tailnet"]);
    expect(bash("openclaw", "gateway", "run", "--port", "")).toEqual([]);
    expect(bash("openclaw", "gateway", "run", "--bind", "lan", "--a")).toEqual(["--auth", "--allow-unconfigured"]);
    // A value named <path> is a file.
    expect(bash("openclaw", "acp", "--token-file", "")).toEqual(["token.txt"]);
  });

  it("offers an argument's fixed values in its position only", () => {
    expect(bash("openclaw", "completion", "")).toEqual(["bash", "zsh", "fish", "--help"]);
    expect(bash("openclaw", "completion", "bash", "")).toEqual(["--help"]);
  });
});

describe("openclaw completion fish", () => {
  it("completes by the whole command path, not the last word", () => {
    expect(fish("openclaw gat")).toEqual(["gateway"]);
    const gateway = fish("openclaw gateway ");
    expect(gateway).toEqual(expect.arrayContaining(["run", "start", "install", "status"]));
    expect(gateway).not.toContain("doctor");
    // `status` is a top-level command and a subcommand of gateway, channels, cron…: each keeps its own flags.
    expect(fish("openclaw status --").sort()).toEqual(["--help", "--json", "--password", "--port", "--timeout", "--token", "--url"]);
    expect(fish("openclaw pairing approve --")).not.toContain("--latest");
    expect(fish("openclaw devices approve --")).toContain("--latest");
    expect(fish("openclaw --log-level debug gateway ")).toEqual(expect.arrayContaining(["run", "install"]));
    expect(fish("openclaw gateway install ")).toEqual([]);
  });

  it("offers the values of a flag or argument with a fixed set", () => {
    expect(fish("openclaw gateway run --bind ")).toEqual(BIND_MODES);
    expect(fish("openclaw gateway run --bind=ta")).toEqual(["--bind=tailnet"]);
    expect(fish("openclaw logs --level e")).toEqual(["error"]);
    expect(fish("openclaw gateway run --port ")).toEqual([]);
    expect(fish("openclaw acp --token-file ")).toEqual(["token.txt"]);
    expect(fish("openclaw completion ")).toEqual(["bash", "zsh", "fish"]);
    expect(fish("openclaw completion bash ")).toEqual([]);
  });
});

describe("openclaw completion zsh", () => {
  it("is valid zsh", () => {
    expect(scripts.zsh).toMatch(/^#compdef openclaw/);
    expect(run("zsh", ["-n", files.zsh])).toBe("");
  });

  it("completes subcommands, options, and the values of flags and arguments with a fixed set", () => {
    expect(zsh("openclaw", "gateway", "")).toEqual(expect.arrayContaining(["run", "install"]));
    expect(zsh("openclaw", "gateway", "")).not.toContain("doctor");
    expect(zsh("openclaw", "status", "--")).not.toContain("--agent");
    expect(zsh("openclaw", "--log-level", "debug", "gateway", "")).toEqual(expect.arrayContaining(["run", "install"]));
    expect(zsh("openclaw", "gateway", "run", "--bind", "")).toEqual(BIND_MODES);
    expect(zsh("openclaw", "gateway", "run", "--bind=")).toEqual(BIND_MODES);
    expect(zsh("openclaw", "logs", "--level", "")).toEqual(["trace", "debug", "info", "warn", "error", "fatal"]);
    expect(zsh("openclaw", "gateway", "run", "--port", "")).toEqual([]);
    expect(zsh("openclaw", "acp", "--token-file", "")).toEqual(["(files)"]);
    expect(zsh("openclaw", "completion", "")).toEqual(["bash", "zsh", "fish"]);
  });
});

/**
 * Types each of `lines` into an interactive zsh (under zsh's own pseudo-terminal module) with the
 * script autoloaded from $fpath by compinit, presses Tab at its end, and returns the line as
 * completion left it. Each line is typed once the prompt shows (before it the terminal, not the
 * line editor, would echo the keys), and ends with a marker that shows once Tab is done.
 */
function zshInteractive(lines: string[]): string[] {
  const fpathDir = makeTempDir("openclaw-completion-fpath-");
  fs.copyFileSync(files.zsh, path.join(fpathDir, "_openclaw"));
  // The prompt is "<ok> "; the echo of the line that sets it reads <""ok>, so only the prompt matches.
  const driver = [
    "zmodload zsh/zpty",
    "zpty -b z 'zsh -f -i'",
    `zpty -w z 'PS1="<""ok> "; bindkey -e; fpath=(${fpathDir} $fpath); autoload -U compinit; compinit -u -D; openclaw() { :; }'`,
    ...lines.flatMap((line, i) => ["zpty -r z out '*<ok> *'", `zpty -w -n z ${quoted(line)}$'\\t @@${i}\\n'`, `zpty -r z out '*@@${i}*'`, 'print -r -- "$out"']),
    "zpty -d z",
  ].join("\n");
  const result = spawnSync("zsh", ["-f", "-c", driver], { encoding: "utf8", timeout: 30_000 });
  if (result.status !== 0) throw new Error(`zsh exited ${result.status ?? result.signal}: ${result.stderr}\n${result.stdout}`);
  const screen = result.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/[\r\b]/g, "");
  return lines.map((_, i) => {
    const before = screen.slice(0, screen.indexOf(`@@${i}`));
    return before.slice(before.lastIndexOf("openclaw")).trimEnd();
  });
}

describe("openclaw completion zsh, interactive", () => {
  it("completes through zsh's completion system with the script autoloaded from $fpath", () => {
    expect(zshInteractive(["openclaw gateway inst", "openclaw gateway run --bind ta", "openclaw --log-level de", "openclaw completion f"])).toEqual([
      "openclaw gateway install",
      "openclaw gateway run --bind tailnet",
      "openclaw --log-level debug",
      "openclaw completion fish",
    ]);
  });
});

describe("openclaw completion", () => {
  it("refuses an unknown shell", async () => {
    const bad = await runCli(["completion", "tcsh"], {});
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain("Allowed choices are bash, zsh, fish");
  });
});

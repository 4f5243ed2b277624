import { type CommandNode, type CompletionFlag, shellWord } from "./command-tree.js";

/**
 * The fish completion script. Every entry's condition asks `__openclaw_scan` where the line is:
 * the command path (the words after `openclaw` that name commands, a flag's value skipped), how
 * many arguments follow it, and whether the next word is a flag's value.
 */
export function fishScript(nodes: CommandNode[]): string {
  const entries: string[] = [];
  const condition = (fn: string, ...args: string[]) => `-n ${shellWord([fn, ...args.map(shellWord)].join(" "))}`;
  for (const n of nodes) {
    for (const sub of n.subcommands) {
      entries.push(`complete -c openclaw ${condition("__openclaw_word_at", n.path)} -a ${shellWord(sub.name)} -d ${shellWord(sub.description)}`);
    }
    n.argumentChoices.forEach((choices, position) => {
      if (choices) entries.push(`complete -c openclaw ${condition("__openclaw_word_at", n.path, String(position))} -k -a ${shellWord(choices.join(" "))}`);
    });
    for (const flag of n.flags) entries.push(`complete -c openclaw ${condition("__openclaw_at", n.path)} ${flagSpec(flag)}`);
  }
  const takesValue = nodes.flatMap((n) => n.flags.filter((f) => f.value).flatMap((f) => f.names.map((name) => shellWord(`${n.path}|${name}`))));
  const commandPaths = nodes.filter((n) => n.path).map((n) => shellWord(n.path));
  return `# fish completion for openclaw (openclaw completion fish)
# Install: openclaw completion fish > ~/.config/fish/completions/openclaw.fish
complete -c openclaw -f

function __openclaw_is_command
    switch $argv[1]
        case ${commandPaths.join(" ")}
            return 0
    end
    return 1
end

function __openclaw_takes_value
    switch "$argv[1]|$argv[2]"
        case ${takesValue.join(" ")}
            return 0
    end
    return 1
end

# Sets __openclaw_path, __openclaw_npos and __openclaw_pending (the flag whose value comes next) for the line before the cursor.
function __openclaw_scan
    set -l line (commandline -pc)
    test "$line" = "$__openclaw_line"; and return
    set -g __openclaw_line "$line"
    set -g __openclaw_path ''
    set -g __openclaw_npos 0
    set -g __openclaw_pending ''
    set -l tokens (commandline -opc)
    set -e tokens[1]
    for word in $tokens
        if test -n "$__openclaw_pending"
            set __openclaw_pending ''
        else if string match -q -- '-*' $word
            __openclaw_takes_value "$__openclaw_path" $word; and set __openclaw_pending $word
        else if __openclaw_is_command (string trim -- "$__openclaw_path $word")
            set __openclaw_path (string trim -- "$__openclaw_path $word")
            set __openclaw_npos 0
        else
            set __openclaw_npos (math $__openclaw_npos + 1)
        end
    end
end

# The line is at command path $argv[1] (its flags, and their values, apply).
function __openclaw_at
    __openclaw_scan
    test "$__openclaw_path" = "$argv[1]"
end

# The next word at command path $argv[1] is a subcommand or an argument (at position $argv[2] when given), not a flag's value.
function __openclaw_word_at
    __openclaw_at $argv[1]; and test -z "$__openclaw_pending"; or return 1
    test (count $argv) -lt 2; or test "$__openclaw_npos" = "$argv[2]"
end

${entries.join("\n")}
`;
}

function flagSpec(flag: CompletionFlag): string {
  const names = flag.names.map((name) => (name.startsWith("--") ? `-l ${shellWord(name.slice(2))}` : `-s ${shellWord(name.slice(1))}`));
  const described = `${names.join(" ")} -d ${shellWord(flag.description)}`;
  const value = flag.value;
  if (!value) return described;
  if (value.kind === "choices") return `${described} -x -k -a ${shellWord(value.choices.join(" "))}`;
  return `${described} ${value.kind === "path" ? "-r -F" : "-x"}`;
}

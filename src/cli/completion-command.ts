import type { Command } from "commander";
import { COMPLETION_SHELLS } from "./ops-choices.js";
import { CliError } from "./output.js";

interface CommandNode {
  /** Words after `openclaw` that lead here ("" for the root). */
  path: string;
  subcommands: { name: string; description: string }[];
  options: string[];
}

/** The program's command tree, flattened: what may follow each command path. */
export function commandTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const walk = (cmd: Command, words: string[]) => {
    const visible = cmd.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
    nodes.push({
      path: words.join(" "),
      subcommands: visible.map((sub) => ({ name: sub.name(), description: sub.description() })),
      options: [...cmd.options.flatMap((o) => [o.long, o.short].filter((flag): flag is string => Boolean(flag))), "--help"],
    });
    for (const sub of visible) walk(sub, [...words, sub.name()]);
  };
  walk(program, []);
  return nodes;
}

const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(nodes: CommandNode[]): string {
  const cases = nodes.map((n) => `    ${shellWord(n.path)}) words=${shellWord([...n.subcommands.map((s) => s.name), ...n.options].join(" "))} ;;`);
  return `# bash completion for openclaw (openclaw completion bash)
# Install: openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw
_openclaw_completion() {
  local cur cmdpath word i words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmdpath=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    if _openclaw_is_command "\${cmdpath:+$cmdpath }$word"; then cmdpath="\${cmdpath:+$cmdpath }$word"; fi
  done
  case "$cmdpath" in
${cases.join("\n")}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
_openclaw_is_command() {
  case "$1" in
${nodes
  .filter((n) => n.path)
  .map((n) => `    ${shellWord(n.path)}) return 0 ;;`)
  .join("\n")}
  esac
  return 1
}
complete -F _openclaw_completion openclaw
`;
}

function zsh(nodes: CommandNode[]): string {
  const describe = (n: CommandNode) => n.subcommands.map((s) => shellWord(`${s.name.replace(/:/g, "\\:")}:${s.description}`)).join(" ");
  const cases = nodes.map((n) => `    ${shellWord(n.path)}) subs=(${describe(n)}); opts=(${n.options.map(shellWord).join(" ")}) ;;`);
  return `#compdef openclaw
# zsh completion for openclaw (openclaw completion zsh)
# Install: openclaw completion zsh > "\${fpath[1]}/_openclaw", then restart zsh
_openclaw() {
  local cmdpath="" word i
  local -a subs opts
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    [[ "$word" == -* ]] && continue
    case "\${cmdpath:+$cmdpath }$word" in
${nodes
  .filter((n) => n.path)
  .map((n) => `      ${shellWord(n.path)}) cmdpath="\${cmdpath:+$cmdpath }$word" ;;`)
  .join("\n")}
    esac
  done
  case "$cmdpath" in
${cases.join("\n")}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then compadd -- $opts; else _describe 'command' subs; fi
}
compdef _openclaw openclaw
`;
}

function fish(nodes: CommandNode[]): string {
  const lines = [
    "# fish completion for openclaw (openclaw completion fish)",
    "# Install: openclaw completion fish > ~/.config/fish/completions/openclaw.fish",
    "complete -c openclaw -f",
  ];
  for (const n of nodes) {
    const words = n.path ? n.path.split(" ") : [];
    // A command path is "seen" when each of its words is on the line and no sibling deeper yet.
    const condition =
      words.length === 0
        ? "__fish_use_subcommand"
        : `__fish_seen_subcommand_from ${words.at(-1)}; and not __fish_seen_subcommand_from ${n.subcommands.map((s) => s.name).join(" ") || "--"}`;
    for (const sub of n.subcommands) lines.push(`complete -c openclaw -n ${shellWord(condition)} -a ${shellWord(sub.name)} -d ${shellWord(sub.description)}`);
    for (const option of n.options.filter((o) => o.startsWith("--"))) lines.push(`complete -c openclaw -n ${shellWord(condition)} -l ${shellWord(option.slice(2))}`);
  }
  return `${lines.join("\n")}\n`;
}

const SHELLS = { bash, zsh, fish } as const;

/** `openclaw completion bash|zsh|fish`: a completion script generated from the command tree itself. */
export function completionCommand(shell: string, program: Command): void {
  const render = SHELLS[shell as keyof typeof SHELLS];
  if (!render) throw new CliError(`unknown shell "${shell}"; expected one of ${COMPLETION_SHELLS.join(", ")}`);
  process.stdout.write(render(commandTree(program)));
}

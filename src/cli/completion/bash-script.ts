import { type CommandNode, flagNames, shellWord } from "./command-tree.js";
import { argumentFunction, flagFunction, isCommandFunction, scanFunction } from "./posix-functions.js";

/** The bash completion script: a function for `complete -F` that walks COMP_WORDS by command path. */
export function bashScript(nodes: CommandNode[]): string {
  const commands = nodes.map((n) => `    ${shellWord(n.path)}) subs=${shellWord(n.subcommands.map((s) => s.name).join(" "))}; opts=${shellWord(flagNames(n).join(" "))} ;;`);
  return `# bash completion for openclaw (openclaw completion bash)
# Install: openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw
_openclaw_completion() {
  local cur flag="" cmdpath="" npos=0 kind="" subs="" opts=""
  local -a values=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  # After "--flag=" the word being completed is the "=" (see _openclaw_scan).
  [[ "$cur" == "=" ]] && cur=""
  _openclaw_scan "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [[ -n "$flag" ]]; then
    _openclaw_flag "$cmdpath" "$flag"
    case "$kind" in
      choices) COMPREPLY=($(compgen -W "\${values[*]}" -- "$cur")) ;;
      path) COMPREPLY=($(compgen -f -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  case "$cmdpath" in
${commands.join("\n")}
  esac
  _openclaw_argument "$cmdpath" "$npos"
  COMPREPLY=($(compgen -W "$subs \${values[*]} $opts" -- "$cur"))
}
${scanFunction()}
${isCommandFunction(nodes)}
${flagFunction(nodes)}
${argumentFunction(nodes)}
complete -F _openclaw_completion openclaw
`;
}

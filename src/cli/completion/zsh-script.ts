import { type CommandNode, flagNames, shellWord } from "./command-tree.js";
import { argumentFunction, flagFunction, isCommandFunction, scanFunction } from "./posix-functions.js";

/** The zsh completion script (#compdef): walks `words` by command path, as the bash one does. */
export function zshScript(nodes: CommandNode[]): string {
  const describe = (n: CommandNode) => n.subcommands.map((s) => shellWord(`${s.name.replace(/:/g, "\\:")}:${s.description}`)).join(" ");
  const commands = nodes.map((n) => `    ${shellWord(n.path)}) subs=(${describe(n)}); opts=(${flagNames(n).map(shellWord).join(" ")}) ;;`);
  return `#compdef openclaw
# zsh completion for openclaw (openclaw completion zsh)
# Install: openclaw completion zsh > "\${fpath[1]}/_openclaw", then restart zsh
_openclaw() {
  local cur="\${words[CURRENT]}" flag="" cmdpath="" kind=""
  local -i npos=0
  local -a subs opts values
  _openclaw_scan "\${(@)words[2,CURRENT-1]}"
  # --flag=value in one word: complete the part after "=".
  if [[ -z "$flag" && "$cur" == --*=* ]] && _openclaw_flag "$cmdpath" "\${cur%%=*}"; then
    flag="\${cur%%=*}"
    compset -P '*='
  fi
  if [[ -n "$flag" ]]; then
    _openclaw_flag "$cmdpath" "$flag"
    case "$kind" in
      choices) compadd -- "\${values[@]}" ;;
      path) _files ;;
      *) return 1 ;;
    esac
    return
  fi
  case "$cmdpath" in
${commands.join("\n")}
  esac
  [[ "$cur" == -* ]] && { compadd -- "\${opts[@]}"; return; }
  local -i ret=1
  _describe 'command' subs && ret=0
  _openclaw_argument "$cmdpath" "$npos"
  (( \${#values} )) && compadd -- "\${values[@]}" && ret=0
  return ret
}
${scanFunction()}
${isCommandFunction(nodes)}
${flagFunction(nodes)}
${argumentFunction(nodes)}
# Autoloaded from $fpath: complete now; sourced: register.
if [[ "\${funcstack[1]}" == _openclaw ]]; then
  _openclaw "$@"
else
  compdef _openclaw openclaw
fi
`;
}

import { type CommandNode, shellWord } from "./command-tree.js";

/**
 * Shell functions bash and zsh share (their `case` and array syntax is the same). Each one looks up
 * a command path in the tree, so the per-shell scripts only walk the words on the line.
 */

/** Case branches, those with the same body merged into one pattern list. */
function caseBranches(entries: { key: string; body: string }[], indent: string): string {
  const byBody = new Map<string, string[]>();
  for (const { key, body } of entries) byBody.set(body, [...(byBody.get(body) ?? []), shellWord(key)]);
  return [...byBody].map(([body, keys]) => `${indent}${keys.join("|")}) ${body} ;;`).join("\n");
}

/** `_openclaw_is_command PATH`: succeeds when PATH names a command. */
export function isCommandFunction(nodes: CommandNode[]): string {
  const paths = nodes.filter((n) => n.path).map((n) => ({ key: n.path, body: "return 0" }));
  return `_openclaw_is_command() {
  case "$1" in
${caseBranches(paths, "    ")}
  esac
  return 1
}`;
}

/**
 * `_openclaw_flag PATH FLAG`: succeeds when FLAG takes a value at command path PATH, and sets
 * \`kind\` (choices, path or any) and, for choices, \`values\`.
 */
export function flagFunction(nodes: CommandNode[]): string {
  const entries = nodes.flatMap((n) =>
    n.flags.flatMap((flag) => {
      const value = flag.value;
      if (!value) return [];
      const body = value.kind === "choices" ? `kind=choices; values=(${value.choices.map(shellWord).join(" ")})` : `kind=${value.kind}`;
      return flag.names.map((name) => ({ key: `${n.path}|${name}`, body }));
    }),
  );
  return `_openclaw_flag() {
  case "$1|$2" in
${caseBranches(entries, "    ")}
    *) return 1 ;;
  esac
}`;
}

/** `_openclaw_argument PATH POSITION`: sets \`values\` to the fixed values of that positional argument (none when any value goes). */
export function argumentFunction(nodes: CommandNode[]): string {
  const entries = nodes.flatMap((n) =>
    n.argumentChoices.flatMap((choices, position) => (choices ? [{ key: `${n.path}|${position}`, body: `values=(${choices.map(shellWord).join(" ")})` }] : [])),
  );
  return `_openclaw_argument() {
  case "$1|$2" in
${caseBranches(entries, "    ")}
    *) values=() ;;
  esac
}`;
}

/**
 * `_openclaw_scan WORD...` walks the words before the cursor and sets, in its caller, \`cmdpath\`
 * (the words naming commands), \`npos\` (arguments after it) and \`flag\` (the flag whose value
 * comes next). A lone "=" is skipped: bash splits --flag=value into "--flag" "=" "value".
 */
export function scanFunction(): string {
  return `_openclaw_scan() {
  local word
  for word in "$@"; do
    if [[ "$word" == "=" ]]; then
      continue
    elif [[ -n "$flag" ]]; then
      flag=""
    elif [[ "$word" == -* ]]; then
      _openclaw_flag "$cmdpath" "$word" && flag="$word"
    elif _openclaw_is_command "\${cmdpath:+$cmdpath }$word"; then
      cmdpath="\${cmdpath:+$cmdpath }$word"
      npos=0
    else
      npos=$((npos + 1))
    fi
  done
}`;
}

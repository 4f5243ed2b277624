import type { Command } from "commander";

/** What a flag's value may be: one of a fixed set, a path on disk, or anything (nothing to offer). */
export type FlagValue = { kind: "choices"; choices: readonly string[] } | { kind: "path" } | { kind: "any" };

export interface CompletionFlag {
  /** The spellings, long first: ["--follow", "-f"]. */
  names: string[];
  description: string;
  /** Undefined for a flag that takes no value. */
  value?: FlagValue;
}

export interface CommandNode {
  /** Words after `openclaw` that lead here ("" for the root). */
  path: string;
  subcommands: { name: string; description: string }[];
  flags: CompletionFlag[];
  /** The fixed values of each positional argument, by position (undefined: any value). */
  argumentChoices: (readonly string[] | undefined)[];
}

/** A value named like `<path>`, `<file>` or `<dir>` is completed from the file system. */
const PATH_VALUE = /<(path|file|dir)>|\[(path|file|dir)\]/;

/** The program's command tree, flattened: what may follow each command path. */
export function commandTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const walk = (cmd: Command, words: string[]) => {
    const visible = cmd.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
    nodes.push({
      path: words.join(" "),
      subcommands: visible.map((sub) => ({ name: sub.name(), description: sub.description() })),
      flags: [
        ...cmd.options.map((o) => ({
          names: [o.long, o.short].filter((name): name is string => Boolean(name)),
          description: o.description,
          ...(o.required || o.optional ? { value: flagValue(o.argChoices, o.flags) } : {}),
        })),
        { names: ["--help"], description: "display help for command" },
      ],
      argumentChoices: cmd.registeredArguments.map((a) => a.argChoices),
    });
    for (const sub of visible) walk(sub, [...words, sub.name()]);
  };
  walk(program, []);
  return nodes;
}

function flagValue(choices: readonly string[] | undefined, spelling: string): FlagValue {
  if (choices) return { kind: "choices", choices };
  return PATH_VALUE.test(spelling) ? { kind: "path" } : { kind: "any" };
}

/** Every spelling of every flag of `node`, long ones first within each flag. */
export function flagNames(node: CommandNode): string[] {
  return node.flags.flatMap((f) => f.names);
}

/** A word in single quotes, for bash, zsh and fish alike. */
export const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

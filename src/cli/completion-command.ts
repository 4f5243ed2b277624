import type { Command } from "commander";
import { bashScript } from "./completion/bash-script.js";
import { commandTree } from "./completion/command-tree.js";
import { fishScript } from "./completion/fish-script.js";
import { zshScript } from "./completion/zsh-script.js";
import { COMPLETION_SHELLS } from "./ops-choices.js";
import { CliError } from "./output.js";

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** `openclaw completion bash|zsh|fish`: a completion script generated from the command tree itself. */
export function completionCommand(shell: string, program: Command): void {
  const render = SHELLS[shell as keyof typeof SHELLS];
  if (!render) throw new CliError(`unknown shell "${shell}"; expected one of ${COMPLETION_SHELLS.join(", ")}`);
  process.stdout.write(render(commandTree(program)));
}

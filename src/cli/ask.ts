/**
 * The questions CLI commands ask on a terminal (agents add and delete, sessions delete). They are asked only when
 * stdin is a terminal; with --json they are written to stderr, so stdout holds only the JSON.
 * Each answers undefined when the user cancels (Ctrl-C, Esc).
 */

export function canAsk(): boolean {
  return process.stdin.isTTY === true;
}

function output(json: boolean): NodeJS.WriteStream {
  return json ? process.stderr : process.stdout;
}

export async function askText(message: string, opts: { initialValue?: string; validate: (value: string) => string | undefined; json: boolean }): Promise<string | undefined> {
  const { isCancel, text } = await import("@clack/prompts");
  const answer = await text({
    message,
    ...(opts.initialValue !== undefined ? { initialValue: opts.initialValue } : {}),
    validate: (value) => opts.validate(value ?? ""),
    output: output(opts.json),
  });
  return isCancel(answer) ? undefined : answer.trim();
}

/** Yes or no, no by default. */
export async function askConfirm(message: string, json: boolean): Promise<boolean> {
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message, initialValue: false, output: output(json) });
  return !isCancel(answer) && answer === true;
}

/** One of `choices`, `initial` preselected. */
export async function askChoice<T extends string>(message: string, choices: readonly { value: T; label: string; hint?: string }[], initial: T): Promise<T | undefined> {
  const { isCancel, select } = await import("@clack/prompts");
  const answer = await select<string>({ message, options: choices.map((c) => ({ value: c.value, label: c.label, ...(c.hint ? { hint: c.hint } : {}) })), initialValue: initial });
  return isCancel(answer) ? undefined : (answer as T);
}

/** Any of `choices`, `initial` preselected. */
export async function askChoices<T extends string>(
  message: string,
  choices: readonly { value: T; label: string; hint?: string }[],
  initial: readonly T[],
): Promise<T[] | undefined> {
  const { isCancel, multiselect } = await import("@clack/prompts");
  const answer = await multiselect<string>({
    message,
    options: choices.map((c) => ({ value: c.value, label: c.label, ...(c.hint ? { hint: c.hint } : {}) })),
    initialValues: [...initial],
    required: false,
  });
  return isCancel(answer) ? undefined : (answer as T[]);
}

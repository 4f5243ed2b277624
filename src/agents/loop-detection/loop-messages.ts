/**
 * What the model (reminders) and the user (stop messages) read when a loop is detected.
 * Reminders say what was seen and what to do instead, because "you are looping" alone tends
 * to produce the same call again with an apology.
 */

export function repeatReminder(tool: string, count: number): string {
  return (
    `[loop check] You have called \`${tool}\` with the same arguments ${count} times in a row and got the same result each time. ` +
    "Calling it again will not change the outcome. Use the result you already have, change the arguments or use a different tool, " +
    "or stop and tell the user what is blocking you."
  );
}

export function pollReminder(tool: string, count: number): string {
  return (
    `[loop check] You have polled with \`${tool}\` ${count} times in a row without any new output. ` +
    "If the process is expected to take long, wait with a longer timeout instead of polling repeatedly; " +
    "if it looks stuck, inspect or kill it, or tell the user."
  );
}

export function readReminder(file: string, count: number): string {
  return (
    `[loop check] You have read \`${file}\` ${count} times and it has not changed since the first of those reads. ` +
    "Its content is already in the conversation above: work from that instead of reading it again, " +
    "or change the file if it needs to change."
  );
}

export function pingPongReminder(first: string, second: string, roundTrips: number): string {
  return (
    `[loop check] You are alternating between \`${first}\` and \`${second}\` with the same arguments and the same results ` +
    `(${roundTrips} round trips). Nothing is changing between them. Decide what you actually need to learn or change, ` +
    "take a different action, or tell the user what is blocking you."
  );
}

export function repeatStop(tool: string, count: number): string {
  return `Stopped a tool loop: \`${tool}\` was called ${count} times in a row with the same arguments and the same result, after a reminder to stop.`;
}

export function pollStop(tool: string, count: number): string {
  return `Stopped a tool loop: \`${tool}\` polled ${count} times in a row without any new output, after a reminder to stop.`;
}

export function readStop(file: string, count: number): string {
  return `Stopped a tool loop: \`${file}\` was read ${count} times without changing, after a reminder to stop.`;
}

export function pingPongStop(first: string, second: string, roundTrips: number): string {
  return `Stopped a tool loop: \`${first}\` and \`${second}\` alternated ${roundTrips} times with unchanged results, after a reminder to stop.`;
}

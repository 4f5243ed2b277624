import { randomBytes } from "node:crypto";

/** A text between two markers that carry a random tag. */
export interface DataFence {
  open: string;
  close: string;
  /** The text with the markers around it, each on its own line. */
  text: string;
}

/**
 * Puts text a model is to read as data (an answer to grade, a run to judge) between markers with
 * a random tag the text cannot know, so it cannot close the block and speak to the model; the
 * prompt names the markers and says what stands between them is never instructions.
 */
export function fenceData(name: string, text: string, tag = randomBytes(6).toString("hex")): DataFence {
  const open = `<${name}-${tag}>`;
  const close = `</${name}-${tag}>`;
  return { open, close, text: `${open}\n${text}\n${close}` };
}

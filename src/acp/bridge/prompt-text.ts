import os from "node:os";
import type { ContentBlock } from "@agentclientprotocol/sdk";

/** The largest message (cwd prefix included) the bridge forwards to the gateway. */
export const MAX_PROMPT_BYTES = 2 * 1024 * 1024;

/**
 * An ACP prompt as the one text `chat.send` takes: text blocks as they are, embedded text
 * resources with their URI, resource links as a reference line. Images and audio are refused
 * (the bridge does not advertise them): the gateway takes no attachments.
 */
export function promptToText(prompt: ContentBlock[]): string {
  const parts: string[] = [];
  let bytes = 0;
  for (const block of prompt) {
    const text = blockText(block);
    bytes += Buffer.byteLength(text, "utf8");
    // Checked while joining, so a huge prompt is refused before it is copied again.
    if (bytes > MAX_PROMPT_BYTES) throw promptTooLarge();
    parts.push(text);
  }
  return parts.join("\n");
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource": {
      const resource = block.resource as { uri: string; text?: string };
      if (typeof resource.text !== "string") throw new Error(`prompt resource ${resource.uri}: only text resources are supported (binary blobs are not)`);
      return `Resource ${resource.uri}:\n${resource.text}`;
    }
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    default:
      throw new Error(`prompt content of type "${block.type}" is not supported by openclaw acp (text and resources only)`);
  }
}

/** `[Working directory: ~/project]` and a blank line before the user's text. */
export function withCwdPrefix(text: string, cwd: string): string {
  return `[Working directory: ${shortenHome(cwd)}]\n\n${text}`;
}

export function assertPromptSize(message: string): void {
  if (Buffer.byteLength(message, "utf8") > MAX_PROMPT_BYTES) throw promptTooLarge();
}

function promptTooLarge(): Error {
  return new Error(`prompt is larger than ${MAX_PROMPT_BYTES} bytes (2 MB), the limit of openclaw acp; send a smaller prompt or attach files by reference`);
}

function shortenHome(dir: string): string {
  const home = os.homedir();
  return home && (dir === home || dir.startsWith(`${home}/`)) ? `~${dir.slice(home.length)}` : dir;
}

import { RequestError } from "@agentclientprotocol/sdk";

/**
 * Errors the IDE shows as they are: the SDK would turn a plain Error into a bare "Internal
 * error" with the text hidden in `data`, so every failure carries its own message.
 */
export function invalidInput(message: string): RequestError {
  return new RequestError(-32602, message);
}

export function failed(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  return new RequestError(-32603, err instanceof Error ? err.message : String(err));
}

import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";

/** A gateway call within one command: its method, params, and the answer's type. */
export type GatewayCall = <T>(method: string, params: unknown) => Promise<T>;

/** Runs `use` over one connection to the gateway the flags name, closed afterwards. */
export async function withGateway<T>(flags: ClientFlags, use: (call: GatewayCall) => Promise<T>): Promise<T> {
  const { timeoutMs } = resolveClientTarget(flags);
  const client = await connectClient(flags);
  try {
    return await use(async (method, params) => (await client.call(method, params, { timeoutMs })) as never);
  } finally {
    client.close();
  }
}

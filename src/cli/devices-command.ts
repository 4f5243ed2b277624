import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";

/** What the device rows of `device.pair.list` share. */
interface DeviceRow {
  deviceId: string;
  displayName?: string;
  clientId: string;
  platform: string;
  role: string;
  scopes: string[];
}

interface Pending extends DeviceRow {
  requestId: string;
  remoteAddress: string;
  reason: string;
  createdAtMs: number;
}

interface Paired extends DeviceRow {
  approvedAtMs: number;
  hasToken: boolean;
  lastSeenAtMs?: number;
}

async function call<T>(flags: ClientFlags, method: string, params: unknown): Promise<T> {
  const client = await connectClient(flags);
  try {
    return (await client.call(method, params, { timeoutMs: resolveClientTarget(flags).timeoutMs })) as T;
  } finally {
    client.close();
  }
}

const short = (id: string) => id.slice(0, 12);
const when = (ms: number | undefined) => (ms ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) : "never");

/** `openclaw devices list`: pending requests (answer them with approve/reject) and paired devices. */
export async function devicesListCommand(flags: ClientFlags): Promise<void> {
  const { pending, paired } = await call<{ pending: Pending[]; paired: Paired[] }>(flags, "device.pair.list", {});
  if (flags.json) return printJson({ pending, paired });
  const lines = [`Pending (${pending.length}):`];
  for (const p of pending) {
    lines.push(
      `  ${p.requestId}  ${p.displayName ?? p.clientId} (${p.platform}) from ${p.remoteAddress}, ${p.role} [${p.scopes.join(", ")}], ${p.reason}, device ${short(p.deviceId)}`,
    );
  }
  lines.push(`Paired (${paired.length}):`);
  for (const d of paired) {
    lines.push(
      `  ${d.deviceId}  ${d.displayName ?? d.clientId} (${d.platform}), ${d.role} [${d.scopes.join(", ")}], ${d.hasToken ? `last seen ${when(d.lastSeenAtMs)}` : "approved, token not yet issued"}`,
    );
  }
  if (pending.length > 0) lines.push("", "Approve with `openclaw devices approve <requestId>` (or --latest), refuse with `openclaw devices reject <requestId>`.");
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** `openclaw devices approve <requestId> | --latest`: the device gets its token on its next connect. */
export async function devicesApproveCommand(requestId: string | undefined, flags: ClientFlags & { latest?: boolean }): Promise<void> {
  let id = requestId;
  if (!id) {
    if (!flags.latest) throw new CliError("name the request to approve (`openclaw devices list`) or pass --latest");
    const { pending } = await call<{ pending: Pending[] }>(flags, "device.pair.list", {});
    const latest = pending.at(-1);
    if (!latest) throw new CliError("no pairing request is waiting");
    id = latest.requestId;
  }
  const result = await call<{ device: Paired }>(flags, "device.pair.approve", { requestId: id });
  if (flags.json) return printJson(result);
  process.stdout.write(
    `Approved ${result.device.displayName ?? result.device.clientId} (device ${short(result.device.deviceId)}) as ${result.device.role} [${result.device.scopes.join(", ")}]; it receives its token when it reconnects.\n`,
  );
}

export async function devicesRejectCommand(requestId: string, flags: ClientFlags): Promise<void> {
  const result = await call<{ deviceId: string }>(flags, "device.pair.reject", { requestId });
  if (flags.json) return printJson(result);
  process.stdout.write(`Rejected request ${requestId} (device ${short(result.deviceId)}).\n`);
}

/** `openclaw devices revoke <deviceId>`: the token stops working, its sockets close, and it must pair again. */
export async function devicesRevokeCommand(deviceId: string, flags: ClientFlags): Promise<void> {
  const result = await call<{ deviceId: string }>(flags, "device.token.revoke", { deviceId });
  if (flags.json) return printJson(result);
  process.stdout.write(`Revoked device ${result.deviceId}: its token no longer works and its next connect needs approval.\n`);
}

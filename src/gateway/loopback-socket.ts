/** A listening TCP socket as Node's own `net` module holds it; `server.listen(handle)` adopts it. */
export interface ListeningHandle {
  close(): void;
}

interface TcpHandle extends ListeningHandle {
  bind(host: string, port: number): number;
  bind6(host: string, port: number, flags: number): number;
  listen(backlog: number): number;
}

interface TcpBinding {
  TCP: new (type: number) => TcpHandle;
  constants: { SERVER: number };
}

/** Node's default listen backlog, as `net` uses. */
const BACKLOG = 511;

/**
 * Binds and listens on a loopback address literal (127.x.x.x or ::1) through Node's TCP binding
 * directly: the port accepts connections without loading `net`, the stream classes and `http`
 * first, which costs a gateway started with V8 flags (whose built-in modules then compile without
 * Node's code cache) most of its time to an open port. `http.Server#listen(handle)` adopts the
 * handle afterwards, in the same tick, so no connection is accepted before the server has it.
 * Undefined when the address is not such a literal, the binding is unavailable, or bind/listen
 * fails (the caller then listens the usual way, which reports the error in its own words).
 */
export function listenOnLoopback(host: string, port: number): ListeningHandle | undefined {
  const ipv6 = host === "::1";
  if (!ipv6 && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return undefined;
  const binding = tcpBinding();
  if (!binding) return undefined;
  const handle = new binding.TCP(binding.constants.SERVER);
  const failed = (ipv6 ? handle.bind6(host, port, 0) : handle.bind(host, port)) || handle.listen(BACKLOG);
  if (failed) {
    handle.close();
    return undefined;
  }
  return handle;
}

function tcpBinding(): TcpBinding | undefined {
  // process.binding is deprecated in the documentation only; under --pending-deprecation it would
  // print a warning, so it is left alone then.
  const pending = process.env.NODE_PENDING_DEPRECATION === "1" || [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes("--pending-deprecation"));
  const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
  if (pending || typeof binding !== "function") return undefined;
  try {
    const tcp = binding.call(process, "tcp_wrap") as Partial<TcpBinding>;
    return typeof tcp.TCP === "function" && typeof tcp.constants?.SERVER === "number" ? (tcp as TcpBinding) : undefined;
  } catch {
    return undefined;
  }
}

/** sha256 (hex) of a config file's bytes: what edits compare against and reloads notice. */
export function hashConfigBytes(bytes: Buffer): string {
  // Loaded on first use rather than with the module, which is imported before the port opens.
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(bytes).digest("hex");
}

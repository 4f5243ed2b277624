/** A file a user sent could not be read as text (its charset, a PDF that does not parse): the file's fault, said as such. */
export class FileReadError extends Error {
  override name = "FileReadError";
}

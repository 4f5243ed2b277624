/** One problem found in a config file; `path` is a dot/bracket key path ("" for the file itself). */
export interface ConfigIssue {
  path: string;
  message: string;
}

export interface ConfigErrorDetails {
  issues?: ConfigIssue[];
  filePath?: string;
  line?: number;
  column?: number;
}

/**
 * Everything that can go wrong while reading, validating or writing the config.
 * The message is meant to be shown to the user as is (the CLI prints it and exits 78),
 * so it is complete on its own and never contains a secret value: reasons describe what
 * was expected, not what was found.
 */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  readonly filePath?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, details: ConfigErrorDetails = {}) {
    super(message);
    this.name = "ConfigError";
    this.issues = details.issues ?? [{ path: "", message }];
    this.filePath = details.filePath;
    this.line = details.line;
    this.column = details.column;
  }

  /** Builds the "one problem per line" error used for validation failures. */
  static fromIssues(issues: ConfigIssue[], filePath?: string): ConfigError {
    const lines = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    return new ConfigError(lines.join("\n"), { issues, filePath });
  }

  /** Same issues, now attributed to the file they came from (message unchanged). */
  withFilePath(filePath: string): ConfigError {
    return new ConfigError(this.message, { issues: this.issues, filePath, line: this.line, column: this.column });
  }
}

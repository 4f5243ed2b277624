/** Flag choices the command definitions need before a command's own module loads. */
export const LOGS_LEVEL_CHOICES = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;

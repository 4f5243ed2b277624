/** Start failures the CLI reports as a message, without a stack trace. */
export class GatewayStartError extends Error {}

/** The gateway's port when neither a flag, $OPENCLAW_GATEWAY_PORT nor `gateway.port` names one. */
export const DEFAULT_GATEWAY_PORT = 18789;

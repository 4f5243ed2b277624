/** A `send` the gateway refuses before or after trying (unknown channel, account down, delivery failed). */
export class ChannelSendRefused extends Error {}

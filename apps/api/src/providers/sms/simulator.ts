import { randomUUID } from 'node:crypto';
import type { SmsProvider } from './provider.js';
import { smsParts } from './sms-text.js';

/**
 * The SMS simulator (the default): nothing leaves the machine. Each message is accepted at
 * once, and the outbox records it as sent by the simulator with the text it would have
 * carried, where operators (in the database) and tests read it.
 */
export function createSimulatorSmsProvider(): SmsProvider {
  return {
    name: 'simulator',
    capabilities: { deliversToPhones: false, idempotentSend: true },
    async send(message) {
      return { ok: true, providerMessageId: `sim-${randomUUID()}`, parts: smsParts(message.text) };
    },
    async close() {},
  };
}

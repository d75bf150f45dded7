import type { SmsConfig } from '../../config.js';
import { createAfricasTalkingProvider } from './africastalking.js';
import type { SmsProvider, SmsProviderContext } from './provider.js';
import { createSimulatorSmsProvider } from './simulator.js';

/** The configured SMS provider. */
export function createSmsProvider(config: SmsConfig, context: SmsProviderContext): SmsProvider {
  if (config.provider === 'africastalking') {
    if (!config.africastalking) throw new Error("Africa's Talking is selected but not configured");
    return createAfricasTalkingProvider(
      { ...config.africastalking, timeoutMs: config.timeoutMs },
      context,
    );
  }
  return createSimulatorSmsProvider();
}

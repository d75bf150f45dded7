import type { PaymentsConfig } from '../config.js';
import { createCampayProvider } from './campay.js';
import type { PaymentProvider, ProviderContext } from './provider.js';
import { createSimulatorProvider } from './simulator.js';
import type { SimulatorLedger } from './simulator-ledger.js';

/** The configured provider. `simulator` is only used for the simulator. */
export async function createPaymentProvider(
  config: PaymentsConfig,
  context: ProviderContext,
  simulator: { signingKey: () => Promise<string>; ledger: SimulatorLedger },
): Promise<PaymentProvider> {
  if (config.provider === 'campay') {
    if (!config.campay) throw new Error('Campay is selected but not configured');
    return createCampayProvider(config.campay, { now: () => context.clock.now() });
  }
  return createSimulatorProvider(
    {
      delayMs: config.simulatorDelayMs,
      signingKey: await simulator.signingKey(),
      ledger: simulator.ledger,
    },
    context,
  );
}

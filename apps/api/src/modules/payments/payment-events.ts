import { EventEmitter } from 'node:events';
import type { Fanout } from '../../fanout.js';

export const PAYMENT_CHANNEL = 'payment_status';

/**
 * Fan-out of payment status changes. Writers call pg_notify(PAYMENT_CHANNEL, paymentId)
 * inside their transaction; every process listens once (the database, or Redis: decision 033)
 * and re-emits locally, so a callback received by one process reaches a socket held by another.
 */
export class PaymentEvents {
  private readonly emitter = new EventEmitter();
  private unlisten: (() => Promise<void>) | null = null;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async start(fanout: Fanout): Promise<void> {
    this.unlisten = await fanout.listen(PAYMENT_CHANNEL, (paymentId) => {
      // Empty after a reconnect: notifications may have been missed, wake every socket.
      if (paymentId === '') for (const name of this.emitter.eventNames()) this.emitter.emit(name);
      else this.emitter.emit(paymentId);
    });
  }

  subscribe(paymentId: string, onChange: () => void): () => void {
    this.emitter.on(paymentId, onChange);
    return () => this.emitter.off(paymentId, onChange);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.emitter.removeAllListeners();
  }
}

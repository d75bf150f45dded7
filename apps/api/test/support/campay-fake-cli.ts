/**
 * Runs the fake Campay by hand, for trying the server with PAYMENT_PROVIDER=campay locally:
 *   npm run campay-fake -w @qless/api
 * Numbers ending in 000 fail, any other settles SUCCESSFUL after CAMPAY_FAKE_SETTLE_MS; then
 * the fake POSTs the signed callback (JSON) to CAMPAY_FAKE_CALLBACK_URL. Ctrl-C stops it.
 */
import { type FakeCampayTransaction, startFakeCampay } from './campay-fake.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be an integer >= 0`);
  return value;
}

const port = envInt('CAMPAY_FAKE_PORT', 4010);
const settleMs = envInt('CAMPAY_FAKE_SETTLE_MS', 5000);
const callbackUrl =
  process.env.CAMPAY_FAKE_CALLBACK_URL || 'http://localhost:3000/api/v1/payment/callback/campay';
new URL(callbackUrl); // fail at start, not at the first callback

const username = 'qless-app';
const password = 'qless-secret';
const timers = new Set<NodeJS.Timeout>();
const log = (line: string) => console.log(`[campay-fake ${new Date().toISOString()}] ${line}`);

const fake = await startFakeCampay({
  port,
  username,
  password,
  onRequest: (r) => log(`${r.method} ${r.path} -> ${r.status ?? 'no answer'}`),
  onCollect: (tx) => {
    const outcome = tx.from.endsWith('000') ? 'FAILED' : 'SUCCESSFUL';
    log(
      `collect ${tx.reference} from ${tx.from}, ${tx.amount} ${tx.currency}: ${outcome} in ${settleMs} ms`,
    );
    const timer = setTimeout(() => {
      timers.delete(timer);
      void settleAndCall(tx, outcome);
    }, settleMs);
    timers.add(timer);
  },
});

async function settleAndCall(tx: FakeCampayTransaction, outcome: 'SUCCESSFUL' | 'FAILED') {
  // GUESS: the failure reason text; Campay does not document its values.
  fake.settle(tx.reference, outcome, outcome === 'FAILED' ? 'Declined by the fake' : undefined);
  try {
    const response = await fake.deliverCallback(callbackUrl, tx.reference, 'POST_JSON');
    log(`callback ${tx.reference} ${outcome} -> ${callbackUrl}: HTTP ${response.status}`);
  } catch (error) {
    const reason = error instanceof Error ? (error.cause ?? error).toString() : String(error);
    log(`callback ${tx.reference} ${outcome} -> ${callbackUrl} failed: ${reason}`);
    log('The transaction stays settled here; the server can still learn it by a status query.');
  }
}

console.log(`Fake Campay listening on ${fake.baseUrl}
Start the API with:
  PAYMENT_PROVIDER=campay
  CAMPAY_BASE_URL=${fake.baseUrl}
  CAMPAY_USERNAME=${username}
  CAMPAY_PASSWORD=${password}
  CAMPAY_WEBHOOK_KEY=${fake.webhookKey}
Numbers ending in 000 fail; others succeed ${settleMs} ms after collect.
Callbacks go to ${callbackUrl} (CAMPAY_FAKE_CALLBACK_URL). Ctrl-C to stop.`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  for (const timer of timers) clearTimeout(timer);
  await fake.close();
  log(`stopped (${signal})`);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

/** The outbox module's public face: what the rest of the API may use of it. */

export {
  insertMessageRows,
  type NewMail,
  type NewMessageRow,
  queueMail,
  queueSms,
  type RenderedMessage,
} from './outbox.repository.js';
export {
  type ChannelSender,
  type ChannelSetup,
  type DeliveryResult,
  leaseFor,
  OutboxWorker,
  type Preparation,
} from './outbox-worker.js';

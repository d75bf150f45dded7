import { TurnCard } from './turn-card';

/**
 * A checked-in booking's turn (the ticket page, My bookings): the customer's booking (read
 * with its key) names its visit today (`visit_id`), then the same key reads the turn.
 */
export function BookingTurn({
  visitId,
  accessKey,
}: {
  visitId: string | undefined;
  accessKey: string;
}) {
  return visitId ? <TurnCard visitId={visitId} accessKey={accessKey} size="inline" /> : null;
}

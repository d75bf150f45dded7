/**
 * The name customers read for a place: the organization's, with its branch in brackets when
 * it has one ("Banque des Hauts Plateaux (Akwa)"). The same label as the API's `placeLabel`
 * (organizations.repository.ts), which names the place on the ticket, its PDF and every SMS:
 * the booking form and the ticket it leads to say the same (decision 121).
 */
export function placeLabel(place: { name: string; branch_name?: string | null }): string {
  const branch = place.branch_name?.trim();
  return branch ? `${place.name} (${branch})` : place.name;
}

/**
 * The letters of a queue's numbers ("B-042"). An admin may choose a service's letter; a
 * service without one gets, in the order the services were created, the first letter that
 * no chosen letter and no earlier service takes (decision 119). The same
 * rule gives the letter at the service's first visit (letterFor) and shows it in Queue setup
 * beforehand, so an organization that chooses none still has one letter per service, known
 * in advance — not whichever service happened to be visited first.
 */
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

export interface LetterService {
  id: string;
  letter: string | null;
  active: boolean;
}

/**
 * Each service's letter, chosen or planned: `services` in their creation order. A retired
 * service keeps the letter it has and plans none; a service left without one (more than 26)
 * is missing from the map.
 */
export function plannedLetters(services: readonly LetterService[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const s of services) {
    if (s.letter) {
      out.set(s.id, s.letter);
      taken.add(s.letter);
    }
  }
  let next = 0;
  for (const s of services) {
    if (s.letter || !s.active) continue;
    while (next < LETTERS.length && taken.has(LETTERS[next] as string)) next += 1;
    const letter = LETTERS[next];
    if (letter === undefined) break;
    out.set(s.id, letter);
    taken.add(letter);
  }
  return out;
}

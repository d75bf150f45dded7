/**
 * "au Guichet 3", "à la Caisse 5", "à l'Accueil 6": the French words before a counter's name,
 * from its first word (a name that starts otherwise: "au guichet Bleu"). One rule for the
 * SMS (apps/api turn-messages.ts, with the GSM alphabet's ') and the visitor's page.
 */
export function frenchCounterArticle(counter: string, apostrophe = '’'): string {
  const first = (counter.trim().split(/\s+/)[0] ?? '').toLowerCase();
  if (/^(?:guichet|bureau|box|comptoir|poste|point|service|desk|cabinet|pupitre)$/u.test(first)) {
    return 'au ';
  }
  if (/^(?:caisse|salle|porte|table|cabine|réception|station)$/u.test(first)) return 'à la ';
  if (/^[aeiouéèêâîôû]/u.test(first)) return `à l${apostrophe}`;
  return 'au guichet ';
}

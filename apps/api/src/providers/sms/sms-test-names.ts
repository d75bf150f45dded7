/** Names and links of the SMS tests of the SMS shortening (decisions 122, 141). */
// The links the SMS carry: a booking's short link (`/t/`, decision 141), a walk-in's visit
// page with its key, a waitlist offer's short link; on Qless's own 20-character origin, and
// on a site address of 30 characters (an organization running Qless under its own name:
// 45, 98 and 55 characters), which every text must still fit in one part.
const links = (origin: string) => ({
  ticket: `${origin}/t/7K3M9QXD2PAB`,
  visit: `${origin}/visit/6f1c2d3e-4b5a-4c6d-8e7f-901234567890#k=${'V'.repeat(22)}`,
  offer: `${origin}/w/PypnHptNTqihwl1ufwgJqw`,
});
export const ORIGIN_30 = 'https://rdv.banque-littoral.cm';
export const LINKS_30 = links(ORIGIN_30);
const QLESS = links('https://www.qless.cm');
export const TICKET_LINK = QLESS.ticket;
export const VISIT_LINK = QLESS.visit;
export const OFFER_LINK = QLESS.offer;

// The demo's two banks as customers see them (the catalogue's place names).
export const LITTORAL = 'Banque du Littoral – Agence Akwa';
export const HAUTS_PLATEAUX = 'Banque des Hauts Plateaux (Banengo)';
export const LONG_PLACE =
  'Centre Hospitalier et Universitaire de Yaoundé – Service des Urgences Pédiatriques';
export const COUNTER_22 = 'Guichet des messages 12';

/** Names and links of the SMS tests of the SMS shortening (decision 122). */
// The longest links the SMS carry: a booked visitor's ticket page with its 43-character key
// (91 characters) and a walk-in's visit page (88), on a 20-character origin.
export const TICKET_LINK = `https://www.qless.cm/ticket/QL-ABCD-EFGH-JKLM#k=${'K'.repeat(43)}`;
export const VISIT_LINK = `https://www.qless.cm/visit/6f1c2d3e-4b5a-4c6d-8e7f-901234567890#k=${'V'.repeat(22)}`;
export const OFFER_LINK = 'https://www.qless.cm/w/PypnHptNTqihwl1ufwgJqw';

// The demo's two banks as customers see them (the catalogue's place names).
export const LITTORAL = 'Banque du Littoral – Agence Akwa';
export const HAUTS_PLATEAUX = 'Banque des Hauts Plateaux (Banengo)';
export const LONG_PLACE =
  'Centre Hospitalier et Universitaire de Yaoundé – Service des Urgences Pédiatriques';
export const COUNTER_22 = 'Guichet des messages 12';

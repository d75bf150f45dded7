/**
 * The privacy page's text, English and French (decision 031). It lives in the page's own
 * chunk rather than in i18n/en.ts, which is in every visitor's first download: a page few
 * people open should not make every first visit heavier. `fr` has the type of `en`, so the
 * two cannot drift apart. `{days}`, `{auditDays}` and `{backupWeeks}` are the server's
 * settings, filled in by the page.
 */
export const en = {
  lead: 'What Qless keeps about you, why, for how long, who sees it, and how to ask to see, correct or erase it.',
  keptTitle: 'What we keep',
  kept: [
    'Bookings: the name, phone number and e-mail address you give, the organization, service, day and time, and the ticket.',
    'Visits to a queue: the name and phone number given at the desk or on the join page, and the times of your turn.',
    'Waitlist places: your phone number and the day you wait for.',
    'Payments: the amount, the state, the references of the mobile money operator, and the number that paid. We never see your PIN.',
    'Messages: the SMS and e-mails we send you (booking, reminder, your turn, a seat offered, a question after your visit) and whether they were delivered.',
    'Your rating and comment after a visit, if you give one.',
    'The connection address (IP) a booking, a visit or a waitlist request came from, to stop abuse.',
    "Organizations' staff accounts: name, e-mail address and role; and an audit log of what staff, administrators and the platform team do (who, what, when, from which address).",
    'Server logs (the time, page, outcome and connection address of each request) and backups of the database.',
  ],
  whyTitle: 'Why',
  why: 'To give you your booking or your turn, to tell you about it by SMS or e-mail, to take and account for the booking fee, to let the organization serve you and see how its service went (counts and waiting times, without names), and to protect the service from fraud and abuse. We do not sell your data and do not use it for advertising.',
  howLongTitle: 'For how long',
  howLong: [
    'Your name, phone number, e-mail address and connection address, and the text of the messages we sent you, are erased {days} days after what they were for has ended: the booked time has passed or the booking was cancelled, the visit ended, the waitlist day passed.',
    'What remains has no name or number in it: a payment keeps its amount, state and operator references for the accounts; counts and waiting times stay for the organization.',
    'The audit log of staff and operator actions: {auditDays} days.',
    'Backups of the database: at most {backupWeeks} weeks; erased data leaves them as they are replaced.',
    'Staff accounts: as long as the account exists.',
  ],
  whoTitle: 'Who sees it',
  who: [
    'The organization you booked with or visited (its staff and administrators): your name, phone number and booking or visit. The screen in the hall shows numbers only, never names.',
    'The Qless platform team, to run the service and answer your requests.',
    'Our SMS and e-mail providers receive the number or address and the text of each message; the mobile money operator (MTN Mobile Money or Orange Money, through Campay) receives the paying number and the amount.',
  ],
  rightsTitle: 'Your rights',
  rights:
    'Under Cameroon’s law n° 2024/017 of 23 December 2024 on personal data protection, you may ask to access the data we hold about you, to have it corrected, to have it erased, and object to its use.',
  howTo:
    'Write to us through the contact page, with the phone number or e-mail address you used. The platform team can send you everything held about it, or erase it all at once (an upcoming booking then stays valid, without your name).',
  contactLink: 'Go to the contact page',
};

export type PrivacyText = typeof en;

export const fr: PrivacyText = {
  lead: 'Ce que Qless conserve sur vous, pourquoi, combien de temps, qui le voit, et comment demander à le consulter, le corriger ou l’effacer.',
  keptTitle: 'Ce que nous conservons',
  kept: [
    'Réservations\u00a0: le nom, le numéro de téléphone et l’adresse e-mail que vous donnez, l’organisation, le service, le jour et l’heure, et le ticket.',
    'Passages dans une file\u00a0: le nom et le numéro donnés au guichet ou sur la page d’entrée dans la file, et les heures de votre tour.',
    'Places en liste d’attente\u00a0: votre numéro et le jour attendu.',
    'Paiements\u00a0: le montant, l’état, les références de l’opérateur de mobile money et le numéro qui a payé. Nous ne voyons jamais votre code secret.',
    'Messages\u00a0: les SMS et e-mails que nous vous envoyons (réservation, rappel, votre tour, place proposée, question après votre passage) et s’ils ont été remis.',
    'Votre note et votre commentaire après un passage, si vous en donnez.',
    'L’adresse de connexion (IP) d’où vient une réservation, un passage ou une demande de liste d’attente, pour empêcher les abus.',
    'Les comptes du personnel des organisations\u00a0: nom, adresse e-mail et rôle\u00a0; et un journal de ce que font le personnel, les administrateurs et l’équipe de la plateforme (qui, quoi, quand, depuis quelle adresse).',
    'Les journaux du serveur (l’heure, la page, le résultat et l’adresse de connexion de chaque requête) et les sauvegardes de la base de données.',
  ],
  whyTitle: 'Pourquoi',
  why: 'Pour vous donner votre réservation ou votre tour, vous en informer par SMS ou e-mail, encaisser et comptabiliser les frais de réservation, permettre à l’organisation de vous servir et de savoir comment son service s’est passé (nombres et temps d’attente, sans noms), et protéger le service contre la fraude et les abus. Nous ne vendons pas vos données et ne les utilisons pas pour de la publicité.',
  howLongTitle: 'Combien de temps',
  howLong: [
    'Votre nom, votre numéro, votre adresse e-mail et votre adresse de connexion, ainsi que le texte des messages envoyés, sont effacés {days}\u00a0jours après la fin de ce pour quoi ils servaient\u00a0: l’heure réservée est passée ou la réservation a été annulée, le passage est terminé, le jour attendu est passé.',
    'Ce qui reste ne contient ni nom ni numéro\u00a0: un paiement garde son montant, son état et les références de l’opérateur pour la comptabilité\u00a0; les nombres et temps d’attente restent pour l’organisation.',
    'Le journal des actions du personnel et de l’équipe\u00a0: {auditDays}\u00a0jours.',
    'Les sauvegardes de la base\u00a0: {backupWeeks}\u00a0semaines au plus\u00a0; les données effacées en disparaissent à mesure qu’elles sont remplacées.',
    'Les comptes du personnel\u00a0: tant que le compte existe.',
  ],
  whoTitle: 'Qui les voit',
  who: [
    'L’organisation chez qui vous avez réservé ou êtes passé (son personnel et ses administrateurs)\u00a0: votre nom, votre numéro et votre réservation ou passage. L’écran de la salle n’affiche que des numéros, jamais de noms.',
    'L’équipe de la plateforme Qless, pour faire fonctionner le service et répondre à vos demandes.',
    'Nos prestataires de SMS et d’e-mail reçoivent le numéro ou l’adresse et le texte de chaque message\u00a0; l’opérateur de mobile money (MTN Mobile Money ou Orange Money, via Campay) reçoit le numéro qui paie et le montant.',
  ],
  rightsTitle: 'Vos droits',
  rights:
    'En vertu de la loi camerounaise n° 2024/017 du 23 décembre 2024 relative à la protection des données à caractère personnel, vous pouvez demander à accéder aux données que nous détenons sur vous, à les faire rectifier, à les faire effacer, et vous opposer à leur utilisation.',
  howTo:
    'Écrivez-nous par la page de contact, en indiquant le numéro ou l’adresse e-mail utilisés. L’équipe de la plateforme peut vous envoyer tout ce qui est conservé à ce sujet, ou tout effacer d’un coup (une réservation à venir reste alors valable, sans votre nom).',
  contactLink: 'Aller à la page de contact',
};

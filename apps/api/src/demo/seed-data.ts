/**
 * Demo data for Qless: fictional Cameroonian organizations (real quarters and streets,
 * invented brands), their bookable services, and a few demo customers.
 */

export interface SeedService {
  /** Stable key, unique within the organization, kebab-case. */
  slug: string;
  name: string;
  /** 12–30 words, concrete: what the customer gets, what to bring. English. */
  description: string;
  /** The same in French, as a Cameroonian office would write it (French typography). */
  nameFr: string;
  descriptionFr: string;
  /** Minutes; one of 10, 15, 20, 30, 45, 60. */
  durationMinutes: number;
  /** Customers per slot, 1 for most; a few services may take 2–3. */
  capacity: number;
}

export interface SeedOrganization {
  /** Stable key, kebab-case, unique. */
  slug: string;
  name: string;
  /** One of: bank, hospital, civil-registry, tax-office, utility, university, microfinance, clinic, telecom, passport-office. */
  category: string;
  city: 'Douala' | 'Yaoundé' | 'Bamenda' | 'Bafoussam';
  /** Street/quarter address as a Cameroonian would write it, e.g. "Boulevard de la Liberté, Akwa, Douala". */
  location: string;
  /** Contact email, a plausible address on a made-up .cm domain; unique. */
  email: string;
  /** "HH:MM", 24h, e.g. "07:30" and "15:30". */
  startTime: string;
  endTime: string;
  /** File name of the logo under apps/api/assets/media/logos/, e.g. "afriland-akwa.svg". */
  logo: string;
  services: SeedService[];
  /** Branches (decision 024): what customers pick this place by, when it has siblings. */
  branchName?: string;
  /** Where it is, for "near me" (no map service); optional. */
  latitude?: number;
  longitude?: number;
  /** The organization's other branches: each offers the same services, with its own place. */
  branches?: SeedBranch[];
}

/** Another branch of a demo organization: the head's name, hours, logo and services. */
export interface SeedBranch {
  slug: string;
  branchName: string;
  city: 'Douala' | 'Yaoundé' | 'Bamenda' | 'Bafoussam';
  location: string;
  /** Unique, like every organization's sign-in address. */
  email: string;
  latitude: number;
  longitude: number;
}

/**
 * The days a demo place opens (0 = Sunday), by category: a bank opens Monday to Friday, a
 * microfinance Monday to Saturday (the demo bank was once open seven days); the others
 * keep every day (a hospital's clinics; the rest as before).
 */
export function demoOpenDays(category: string): number[] {
  if (category === 'bank') return [1, 2, 3, 4, 5];
  if (category === 'microfinance') return [1, 2, 3, 4, 5, 6];
  return [0, 1, 2, 3, 4, 5, 6];
}

export const seedOrganizations: SeedOrganization[] = [
  {
    slug: 'banque-du-littoral-akwa',
    name: 'Banque du Littoral – Agence Akwa',
    category: 'bank',
    city: 'Douala',
    location: 'Boulevard de la Liberté, Akwa, Douala',
    email: 'agence.akwa@banquedulittoral.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'banque-du-littoral-akwa.svg',
    services: [
      {
        slug: 'account-opening',
        name: 'Personal account opening',
        description:
          'Open a current or savings account with an adviser. Bring your CNI or passport, a location plan, two passport photos and 10,000 XAF initial deposit.',
        nameFr: 'Ouverture de compte particulier',
        descriptionFr:
          "Ouvrez un compte courant ou d'épargne avec un conseiller. Apportez votre CNI ou passeport, un plan de localisation, deux photos d'identité et 10\u00a0000\u00a0FCFA de dépôt initial.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-consultation',
        name: 'Loan consultation',
        description:
          'Discuss a personal, school-fees or SME loan with a credit officer. Bring your last three payslips or business statements for a repayment simulation.',
        nameFr: 'Consultation pour un prêt',
        descriptionFr:
          "Étudiez un prêt personnel, scolaire ou PME avec un chargé de crédit. Apportez vos trois derniers bulletins de salaire ou relevés d'activité pour une simulation de remboursement.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'Bank card collection',
        description:
          'Collect your new or renewed Visa debit card and PIN envelope. Bring the original ID used at account opening; the card is activated at the counter.',
        nameFr: 'Retrait de carte bancaire',
        descriptionFr:
          "Retirez votre carte Visa neuve ou renouvelée et son code secret. Apportez la pièce d'identité originale utilisée à l'ouverture du compte\u00a0; la carte est activée au guichet.",
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'international-transfer',
        name: 'International transfer',
        description:
          "Send money abroad or receive a SWIFT transfer. Bring your ID, the beneficiary's full bank details and a supporting invoice or school admission letter.",
        nameFr: 'Virement international',
        descriptionFr:
          "Envoyez de l'argent à l'étranger ou recevez un virement SWIFT. Apportez votre pièce d'identité, les coordonnées bancaires complètes du bénéficiaire et une facture ou lettre d'admission.",
        durationMinutes: 20,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'energie-du-littoral-deido',
    name: 'Énergie du Littoral – Agence Commerciale de Deido',
    category: 'utility',
    city: 'Douala',
    location: 'Boulevard de la République, Deido, Douala',
    email: 'deido@energiedulittoral.cm',
    startTime: '08:00',
    endTime: '15:30',
    logo: 'energie-du-littoral-deido.svg',
    services: [
      {
        slug: 'new-connection',
        name: 'New connection request',
        description:
          "Apply for a new electricity meter for a home or shop. Bring your CNI, land title or rental contract, a location plan and the electrician's wiring certificate.",
        nameFr: 'Demande de nouveau branchement',
        descriptionFr:
          "Demandez un compteur d'électricité pour un logement ou une boutique. Apportez votre CNI, titre foncier ou bail, un plan de localisation et l'attestation de conformité de l'électricien.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'bill-complaint',
        name: 'Bill complaint',
        description:
          'Contest an unusually high or estimated bill. Bring the disputed bill, your last two paid bills and a photo of your meter index taken this week.',
        nameFr: 'Réclamation sur facture',
        descriptionFr:
          "Contestez une facture anormalement élevée ou estimée. Apportez la facture contestée, vos deux dernières factures payées et une photo de l'index de votre compteur prise cette semaine.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'prepaid-meter-issue',
        name: 'Prepaid meter issue',
        description:
          'Get help when your prepaid meter rejects a recharge token or shows an error. Bring your meter number, the last purchase receipt and the displayed code.',
        nameFr: 'Problème de compteur prépayé',
        descriptionFr:
          "Obtenez de l'aide lorsque votre compteur prépayé refuse un code de recharge ou affiche une erreur. Apportez le numéro du compteur, le dernier reçu d'achat et le code affiché.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'subscription-transfer',
        name: 'Subscription transfer',
        description:
          "Transfer an existing contract to the new occupant's name. Bring both parties' CNI, the previous occupant's last paid bill and the new lease agreement.",
        nameFr: "Transfert d'abonnement",
        descriptionFr:
          "Transférez un contrat existant au nom du nouvel occupant. Apportez la CNI des deux parties, la dernière facture payée de l'ancien occupant et le nouveau contrat de bail.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'reconnection',
        name: 'Reconnection after payment',
        description:
          'Request reconnection after a cut for unpaid bills. Bring the receipt showing all arrears paid and your contract number; a technician visit is scheduled within 48 hours.',
        nameFr: 'Rétablissement après paiement',
        descriptionFr:
          'Demandez le rétablissement du courant après une coupure pour impayés. Apportez le reçu de paiement des arriérés et votre numéro de contrat\u00a0; un technicien passe sous 48\u00a0heures.',
        durationMinutes: 15,
        capacity: 2,
      },
    ],
  },
  {
    slug: 'etat-civil-douala-1er-bonanjo',
    name: "Centre d'État Civil de Douala 1er – Bonanjo",
    category: 'civil-registry',
    city: 'Douala',
    location: 'Avenue du Général de Gaulle, Bonanjo, Douala',
    email: 'etatcivil@mairie-douala1er.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'etat-civil-douala-1er-bonanjo.svg',
    services: [
      {
        slug: 'birth-certificate-copy',
        name: 'Certified copy of birth certificate',
        description:
          'Obtain certified copies of a birth certificate registered at this centre. Bring your CNI and the original certificate, or its number and year of registration.',
        nameFr: "Copie certifiée d'acte de naissance",
        descriptionFr:
          "Obtenez des copies certifiées d'un acte de naissance enregistré dans ce centre. Apportez votre CNI et l'acte original, ou son numéro et son année d'enregistrement.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'birth-declaration',
        name: 'Birth declaration',
        description:
          "Declare a newborn's birth within 90 days. Bring the hospital birth declaration form, both parents' CNI and their marriage certificate if married.",
        nameFr: 'Déclaration de naissance',
        descriptionFr:
          "Déclarez la naissance d'un nouveau-né dans les 90\u00a0jours. Apportez la déclaration de naissance de l'hôpital, la CNI des deux parents et leur acte de mariage s'ils sont mariés.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'marriage-file-submission',
        name: 'Marriage file submission',
        description:
          "Submit the file to publish the banns and fix a wedding date. Bring both spouses' birth certificates, CNI, medical certificates, residence certificates and witnesses' ID copies.",
        nameFr: 'Dépôt du dossier de mariage',
        descriptionFr:
          'Déposez le dossier pour publier les bans et fixer la date. Apportez les actes de naissance, CNI, certificats médicaux et de résidence des époux, et les pièces des témoins.',
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'death-certificate',
        name: 'Death registration and certificate',
        description:
          "Register a death and obtain the death certificate. Bring the hospital's medical certificate of death, the deceased's CNI and the declarant's own ID.",
        nameFr: 'Déclaration et acte de décès',
        descriptionFr:
          "Déclarez un décès et obtenez l'acte de décès. Apportez le certificat médical de décès délivré par l'hôpital, la CNI du défunt et la pièce d'identité du déclarant.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'copy-certification',
        name: 'Certification of copies',
        description:
          'Have photocopies of diplomas, ID cards or certificates certified true to the original. Bring the originals, clear photocopies and one fiscal stamp per page.',
        nameFr: 'Certification de copies',
        descriptionFr:
          "Faites certifier conformes à l'original des photocopies de diplômes, cartes d'identité ou actes. Apportez les originaux, des photocopies lisibles et un timbre fiscal par page.",
        durationMinutes: 10,
        capacity: 3,
      },
    ],
  },
  {
    slug: 'centre-hospitalier-mvog-mbi',
    name: 'Centre Hospitalier de Mvog-Mbi',
    category: 'hospital',
    city: 'Yaoundé',
    location: 'Carrefour Mvog-Mbi, derrière la pharmacie, Yaoundé',
    email: 'accueil@chmvogmbi.cm',
    startTime: '07:00',
    endTime: '13:00',
    logo: 'centre-hospitalier-mvog-mbi.svg',
    services: [
      {
        slug: 'general-consultation',
        name: 'General consultation',
        description:
          'See a general practitioner for fever, pain or a check-up. Bring your health booklet, previous prescriptions and test results; pay the consultation fee at the cashier.',
        nameFr: 'Consultation de médecine générale',
        descriptionFr:
          "Consultez un médecin généraliste pour une fièvre, une douleur ou un bilan. Apportez votre carnet de santé, vos ordonnances et résultats d'examens précédents\u00a0; réglez la consultation à la caisse.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'prenatal-consultation',
        name: 'Prenatal consultation',
        description:
          'Monthly antenatal visit with a midwife: weight, blood pressure and foetal heartbeat check. Bring your pregnancy booklet, ultrasound reports and latest lab results.',
        nameFr: 'Consultation prénatale',
        descriptionFr:
          "Visite prénatale mensuelle avec une sage-femme\u00a0: poids, tension et rythme cardiaque fœtal. Apportez votre carnet de grossesse, vos échographies et vos derniers résultats d'analyses.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          "Blood or urine sample for prescribed tests such as malaria, full blood count or glucose. Bring the doctor's prescription; fast for eight hours before glucose tests.",
        nameFr: 'Prélèvement pour analyses',
        descriptionFr:
          "Prise de sang ou d'urine pour les analyses prescrites\u00a0: paludisme, numération sanguine ou glycémie. Apportez l'ordonnance du médecin\u00a0; restez à jeun huit heures avant une glycémie.",
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'paediatric-consultation',
        name: 'Paediatric consultation',
        description:
          "Consultation with a paediatrician for children under 15. Bring the child's health booklet and vaccination card; a parent or guardian must be present.",
        nameFr: 'Consultation pédiatrique',
        descriptionFr:
          "Consultation d'un pédiatre pour les enfants de moins de 15\u00a0ans. Apportez les carnets de santé et de vaccination de l'enfant\u00a0; un parent ou tuteur doit être présent.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'child-vaccination',
        name: 'Child vaccination',
        description:
          "Routine childhood immunisation following the national schedule. Bring the child's vaccination card so the nurse can record each dose and the next due date.",
        nameFr: "Vaccination de l'enfant",
        descriptionFr:
          "Vaccination de routine selon le calendrier national. Apportez le carnet de vaccination de l'enfant pour que l'infirmier note chaque dose et la date de la suivante.",
        durationMinutes: 15,
        capacity: 2,
      },
    ],
  },
  {
    slug: 'universite-sept-collines-scolarite',
    name: 'Université des Sept Collines – Service de la Scolarité',
    category: 'university',
    city: 'Yaoundé',
    location: 'Campus de Ngoa-Ekellé, Yaoundé',
    email: 'scolarite@univ-septcollines.cm',
    startTime: '08:00',
    endTime: '15:30',
    logo: 'universite-sept-collines-scolarite.svg',
    services: [
      {
        slug: 'transcript-request',
        name: 'Transcript request',
        description:
          'Request official transcripts (relevés de notes) for one or more academic years. Bring your student card, matriculation number and the transcript fee payment receipt.',
        nameFr: 'Demande de relevés de notes',
        descriptionFr:
          "Demandez les relevés de notes officiels d'une ou plusieurs années académiques. Apportez votre carte d'étudiant, votre matricule et le reçu de paiement des frais de relevé.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'annual-registration',
        name: 'Annual registration',
        description:
          'Complete administrative registration for the academic year. Bring the tuition payment slip, your student card or admission list extract, two photos and a medical certificate.',
        nameFr: 'Inscription annuelle',
        descriptionFr:
          "Finalisez votre inscription administrative pour l'année académique. Apportez le bordereau des droits universitaires, votre carte d'étudiant ou l'extrait de la liste d'admission, deux photos et un certificat médical.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'degree-certificate-collection',
        name: 'Degree certificate collection',
        description:
          'Collect your attestation de réussite or final diploma once it is signed. Bring your CNI, your student card and the receipt for the certificate fee.',
        nameFr: "Retrait d'attestation de réussite",
        descriptionFr:
          "Retirez votre attestation de réussite ou votre diplôme définitif une fois signé. Apportez votre CNI, votre carte d'étudiant et le reçu des frais d'attestation.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'diploma-authentication',
        name: 'Diploma authentication',
        description:
          'Have diplomas and transcripts authenticated for foreign universities or employers. Bring the originals, photocopies and the fee receipt; authenticated copies are ready after three working days.',
        nameFr: 'Authentification de diplômes',
        descriptionFr:
          'Faites authentifier diplômes et relevés pour une université étrangère ou un employeur. Apportez les originaux, des photocopies et le reçu des frais\u00a0; copies prêtes après trois jours ouvrables.',
        durationMinutes: 20,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'centre-passeports-bastos',
    name: "Centre d'Identification et des Passeports – Bastos",
    category: 'passport-office',
    city: 'Yaoundé',
    location: 'Rue des Ambassades, Bastos, Yaoundé',
    email: 'accueil.bastos@identification-passeports.cm',
    startTime: '08:00',
    endTime: '16:00',
    logo: 'centre-passeports-bastos.svg',
    services: [
      {
        slug: 'passport-biometric-enrolment',
        name: 'Passport biometric enrolment',
        description:
          'Fingerprints, photo and signature capture for a new or renewed passport. Bring your CNI, birth certificate, online pre-enrolment code and the passport fee receipt.',
        nameFr: 'Enrôlement biométrique pour passeport',
        descriptionFr:
          "Prise d'empreintes, photo et signature pour un passeport neuf ou renouvelé. Apportez votre CNI, votre acte de naissance, le code de pré-enrôlement en ligne et le reçu des frais.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'passport-collection',
        name: 'Passport collection',
        description:
          'Collect your printed passport after receiving the "ready" SMS. Bring the enrolment receipt and your CNI; the holder must come in person to sign.',
        nameFr: 'Retrait de passeport',
        descriptionFr:
          "Retirez votre passeport imprimé après avoir reçu le SMS «\u00a0prêt\u00a0». Apportez le récépissé d'enrôlement et votre CNI\u00a0; le titulaire doit venir en personne pour signer.",
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'id-card-enrolment',
        name: 'National ID card enrolment',
        description:
          'Apply for a first or renewed national identity card (CNI). Bring your birth certificate, a residence certificate, the old card if renewing and the fee receipt.',
        nameFr: "Enrôlement pour la carte nationale d'identité",
        descriptionFr:
          "Demandez une première carte nationale d'identité (CNI) ou son renouvellement. Apportez votre acte de naissance, un certificat de résidence, l'ancienne carte en cas de renouvellement et le reçu des frais.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'id-card-collection',
        name: 'National ID card collection',
        description:
          'Collect your new national identity card. Bring the récépissé issued at enrolment; a relative may collect it with a signed proxy and their own ID.',
        nameFr: "Retrait de la carte nationale d'identité",
        descriptionFr:
          "Retirez votre nouvelle carte nationale d'identité. Apportez le récépissé remis à l'enrôlement\u00a0; un proche peut la retirer avec une procuration signée et sa propre pièce d'identité.",
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'lost-document-declaration',
        name: 'Lost document declaration',
        description:
          'Start the replacement of a lost or stolen passport or CNI. Bring the police loss declaration, a copy of the lost document if available and your birth certificate.',
        nameFr: 'Déclaration de perte de document',
        descriptionFr:
          "Lancez le remplacement d'un passeport ou d'une CNI perdus ou volés. Apportez la déclaration de perte de la police, une copie du document perdu et votre acte de naissance.",
        durationMinutes: 15,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'bamenda-regional-hospital',
    name: 'Bamenda Regional Hospital',
    category: 'hospital',
    city: 'Bamenda',
    location: 'Hospital Roundabout, Azire, Bamenda',
    email: 'appointments@rhbamenda.cm',
    startTime: '07:30',
    endTime: '14:30',
    logo: 'bamenda-regional-hospital.svg',
    services: [
      {
        slug: 'general-consultation',
        name: 'General consultation',
        description:
          'See a general practitioner for illness or a routine check-up. Bring your hospital card or health booklet, current medicines and any recent test results.',
        nameFr: 'Consultation de médecine générale',
        descriptionFr:
          "Consultez un médecin généraliste pour une maladie ou un bilan de routine. Apportez votre carte d'hôpital ou carnet de santé, vos médicaments actuels et vos résultats d'examens récents.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'antenatal-clinic',
        name: 'Antenatal clinic',
        description:
          'Scheduled antenatal visit with a midwife: blood pressure, weight, foetal heartbeat and counselling. Bring your antenatal card, ultrasound reports and latest lab results.',
        nameFr: 'Consultation prénatale',
        descriptionFr:
          "Visite prénatale programmée avec une sage-femme\u00a0: tension, poids, rythme cardiaque fœtal et conseils. Apportez votre carte prénatale, vos échographies et vos derniers résultats d'analyses.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          'Blood, urine or stool sample collection for tests ordered by your doctor. Bring the lab request form; for fasting tests, eat nothing after 10 pm.',
        nameFr: 'Prélèvement pour analyses',
        descriptionFr:
          "Prélèvement de sang, d'urine ou de selles pour les analyses demandées par votre médecin. Apportez le bon d'analyses\u00a0; pour un examen à jeun, ne mangez rien après 22\u00a0h.",
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'eye-consultation',
        name: 'Eye consultation',
        description:
          'Eye examination for blurred vision, red or painful eyes, or a glasses prescription. Bring your current glasses, previous prescriptions and your hospital card.',
        nameFr: 'Consultation ophtalmologique',
        descriptionFr:
          "Examen des yeux pour une vision floue, des yeux rouges ou douloureux, ou une ordonnance de lunettes. Apportez vos lunettes actuelles, vos anciennes ordonnances et votre carte d'hôpital.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'medical-fitness-certificate',
        name: 'Medical fitness certificate',
        description:
          'Examination for a medical certificate required for employment, school entry or competitive exams. Bring your ID card, two passport photos and your blood group result.',
        nameFr: "Certificat d'aptitude médicale",
        descriptionFr:
          "Examen pour un certificat médical exigé pour un emploi, une entrée à l'école ou un concours. Apportez votre carte d'identité, deux photos d'identité et votre groupe sanguin.",
        durationMinutes: 15,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'highlands-savings-bank-commercial-avenue',
    name: 'Highlands Savings Bank – Commercial Avenue Branch',
    category: 'bank',
    city: 'Bamenda',
    location: 'Commercial Avenue, opposite the Main Market, Bamenda',
    email: 'commercialavenue@highlandsbank.cm',
    startTime: '08:00',
    endTime: '15:00',
    logo: 'highlands-savings-bank-commercial-avenue.svg',
    services: [
      {
        slug: 'account-opening',
        name: 'Account opening',
        description:
          'Open a savings or current account with a customer adviser. Bring your national ID card, two passport photos, a location plan and 10,000 XAF opening deposit.',
        nameFr: 'Ouverture de compte',
        descriptionFr:
          "Ouvrez un compte d'épargne ou un compte courant avec un conseiller clientèle. Apportez votre CNI, deux photos d'identité, un plan de localisation et 10\u00a0000\u00a0FCFA de dépôt.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-consultation',
        name: 'Loan consultation',
        description:
          'Meet a credit officer about a salary, farming or small-business loan. Bring your last three payslips or six months of business records and your account number.',
        nameFr: 'Consultation pour un prêt',
        descriptionFr:
          'Rencontrez un chargé de crédit pour un prêt salarié, agricole ou PME. Apportez vos trois derniers bulletins de salaire ou six mois de comptes, et votre numéro de compte.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'ATM card collection',
        description:
          'Collect your new or replacement ATM card and PIN. Bring the ID card used to open the account; the card is activated before you leave.',
        nameFr: 'Retrait de carte bancaire',
        descriptionFr:
          "Retirez votre carte de retrait, neuve ou de remplacement, et son code. Apportez la pièce d'identité utilisée à l'ouverture du compte\u00a0; la carte est activée avant votre départ.",
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'cheque-book-request',
        name: 'Cheque book request',
        description:
          'Order or collect a cheque book for your current account. Bring your ID card and account number; new cheque books are ready about ten working days after ordering.',
        nameFr: 'Demande de chéquier',
        descriptionFr:
          "Commandez ou retirez un chéquier pour votre compte courant. Apportez votre carte d'identité et votre numéro de compte\u00a0; un nouveau chéquier est prêt sous dix jours ouvrables environ.",
        durationMinutes: 15,
        capacity: 1,
      },
      {
        slug: 'salary-domiciliation',
        name: 'Salary domiciliation',
        description:
          "Move your civil-servant or company salary to this bank. Bring your ID, latest payslip, employer's attestation and the domiciliation form signed by your employer.",
        nameFr: 'Domiciliation de salaire',
        descriptionFr:
          "Domiciliez votre salaire de fonctionnaire ou d'entreprise dans cette banque. Apportez votre pièce d'identité, votre dernier bulletin de salaire, l'attestation de votre employeur et le formulaire de domiciliation signé.",
        durationMinutes: 20,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'centre-des-impots-bafoussam-tamdja',
    name: 'Centre des Impôts de Bafoussam – Tamdja',
    category: 'tax-office',
    city: 'Bafoussam',
    location: 'Route de Foumban, Tamdja, Bafoussam',
    email: 'cdi.tamdja@impots-ouest.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'centre-des-impots-bafoussam-tamdja.svg',
    services: [
      {
        slug: 'taxpayer-registration-niu',
        name: 'Taxpayer registration (NIU)',
        description:
          'Obtain your Unique Identification Number (NIU) and taxpayer card. Bring your CNI, a location plan of your business and the RCCM extract for a company.',
        nameFr: 'Immatriculation fiscale (NIU)',
        descriptionFr:
          "Obtenez votre Numéro d'Identifiant Unique (NIU) et votre carte de contribuable. Apportez votre CNI, un plan de localisation de votre activité et l'extrait RCCM pour une société.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'tax-clearance-certificate',
        name: 'Tax clearance certificate',
        description:
          'Request an attestation de non-redevance for public tenders or bank files. Bring your NIU, your latest tax returns and receipts showing all taxes are paid.',
        nameFr: 'Attestation de non-redevance',
        descriptionFr:
          'Demandez une attestation de non-redevance pour un marché public ou un dossier bancaire. Apportez votre NIU, vos dernières déclarations et les quittances prouvant que tous vos impôts sont payés.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'tax-return-assistance',
        name: 'Tax return filing assistance',
        description:
          'An officer helps you file your monthly or annual return on the online tax portal. Bring your NIU, portal login, sales records and previous payment receipts.',
        nameFr: 'Aide à la déclaration fiscale',
        descriptionFr:
          'Un agent vous aide à déposer votre déclaration mensuelle ou annuelle sur le portail fiscal en ligne. Apportez votre NIU, vos identifiants, vos registres de ventes et vos quittances précédentes.',
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'business-licence-patente',
        name: 'Business licence (patente)',
        description:
          "Calculate and obtain your annual business licence. Bring your NIU, last year's patente, your turnover declaration and a location plan of your shop.",
        nameFr: 'Patente',
        descriptionFr:
          "Faites calculer et obtenez votre patente annuelle. Apportez votre NIU, la patente de l'an dernier, votre déclaration de chiffre d'affaires et un plan de localisation de votre boutique.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'property-tax-assessment',
        name: 'Property tax assessment',
        description:
          "Assessment and payment guidance for property tax (impôt foncier) on land or buildings. Bring the land title or sale agreement, your NIU and last year's notice.",
        nameFr: "Évaluation de l'impôt foncier",
        descriptionFr:
          "Évaluation de l'impôt foncier sur un terrain ou un bâtiment et conseils de paiement. Apportez le titre foncier ou l'acte de vente, votre NIU et l'avis de l'an dernier.",
        durationMinutes: 30,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'mutuelle-grassfields-marche-a',
    name: "Mutuelle Grassfields d'Épargne – Agence Marché A",
    category: 'microfinance',
    city: 'Bafoussam',
    location: 'Carrefour Marché A, Bafoussam',
    email: 'marchea@mutuellegrassfields.cm',
    startTime: '08:00',
    endTime: '16:30',
    logo: 'mutuelle-grassfields-marche-a.svg',
    services: [
      {
        slug: 'member-account-opening',
        name: 'Membership and savings account',
        description:
          'Become a member and open a savings account. Bring your CNI, two passport photos, a location plan and 5,000 XAF for share capital plus your first deposit.',
        nameFr: "Adhésion et compte d'épargne",
        descriptionFr:
          "Devenez membre et ouvrez un compte d'épargne. Apportez votre CNI, deux photos d'identité, un plan de localisation et 5\u00a0000\u00a0FCFA de parts sociales, plus votre premier dépôt.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'daily-savings-plan',
        name: 'Daily savings plan',
        description:
          'Set up a daily or weekly savings plan collected by our field agent. Bring your member card and the exact location of your market stall or shop.',
        nameFr: "Plan d'épargne journalière",
        descriptionFr:
          "Mettez en place une épargne journalière ou hebdomadaire collectée par notre agent de terrain. Apportez votre carte de membre et l'emplacement exact de votre étal ou de votre boutique.",
        durationMinutes: 20,
        capacity: 2,
      },
      {
        slug: 'microcredit-application',
        name: 'Microcredit application',
        description:
          "Apply for a business loan from 50,000 to 2,000,000 XAF. Bring your member card, a short business description, three months of savings history and a guarantor's CNI.",
        nameFr: 'Demande de microcrédit',
        descriptionFr:
          "Demandez un prêt professionnel de 50\u00a0000 à 2\u00a0000\u00a0000\u00a0FCFA. Apportez votre carte de membre, une description de l'activité, trois mois d'épargne et la CNI d'un garant.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-repayment-review',
        name: 'Loan repayment review',
        description:
          'Review your repayment schedule, reschedule a late instalment or repay early. Bring your member card and loan contract; any penalties are calculated on the spot.',
        nameFr: 'Suivi du remboursement de prêt',
        descriptionFr:
          'Revoyez votre échéancier, réaménagez une échéance en retard ou remboursez par anticipation. Apportez votre carte de membre et votre contrat de prêt\u00a0; les pénalités sont calculées sur place.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'mobile-money-linking',
        name: 'Mobile money linking',
        description:
          'Link your savings account to your mobile money wallet to deposit and withdraw by phone. Bring your CNI and the phone holding the registered SIM card.',
        nameFr: 'Liaison au mobile money',
        descriptionFr:
          "Reliez votre compte d'épargne à votre portefeuille mobile money pour déposer et retirer par téléphone. Apportez votre CNI et le téléphone contenant la carte SIM enregistrée.",
        durationMinutes: 15,
        capacity: 2,
      },
    ],
  },
  {
    slug: 'polyclinique-mangrove-sante-bonapriso',
    name: 'Polyclinique Mangrove Santé – Bonapriso',
    category: 'clinic',
    city: 'Douala',
    location: 'Rue Njo-Njo, Bonapriso, Douala',
    email: 'rendezvous@mangrovesante.cm',
    startTime: '07:30',
    endTime: '18:00',
    logo: 'polyclinique-mangrove-sante-bonapriso.svg',
    services: [
      {
        slug: 'general-consultation',
        name: 'General consultation',
        description:
          'See a general practitioner for fever, cough, pain or a routine check-up. Bring your health booklet, current medicines and your insurance card if covered.',
        nameFr: 'Consultation de médecine générale',
        descriptionFr:
          "Consultez un médecin généraliste pour une fièvre, une toux, une douleur ou un bilan. Apportez votre carnet de santé, vos médicaments actuels et votre carte d'assurance le cas échéant.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'gynaecology-consultation',
        name: 'Gynaecology consultation',
        description:
          'Consultation with a gynaecologist for family planning, irregular cycles or a cervical screening. Bring your health booklet and any previous smear or ultrasound reports.',
        nameFr: 'Consultation de gynécologie',
        descriptionFr:
          'Consultation avec un gynécologue pour la planification familiale, un cycle irrégulier ou un dépistage du col. Apportez votre carnet de santé et vos anciens frottis ou échographies.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'ultrasound-scan',
        name: 'Ultrasound scan',
        description:
          "Abdominal, pelvic or pregnancy ultrasound performed by a sonographer. Bring the doctor's request form; drink one litre of water an hour before a pelvic scan.",
        nameFr: 'Échographie',
        descriptionFr:
          "Échographie abdominale, pelvienne ou de grossesse réalisée par un échographiste. Apportez le bon du médecin\u00a0; buvez un litre d'eau une heure avant une échographie pelvienne.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'dental-check-up',
        name: 'Dental check-up',
        description:
          'Examination, scaling and advice from a dentist for toothache, bleeding gums or a routine check. Bring previous dental X-rays and a list of your medicines.',
        nameFr: 'Contrôle dentaire',
        descriptionFr:
          "Examen, détartrage et conseils d'un dentiste pour une rage de dents, des gencives qui saignent ou un contrôle. Apportez vos anciennes radios dentaires et la liste de vos médicaments.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          'Blood or urine sample for tests such as malaria, typhoid, full blood count or cholesterol. Bring the prescription; results are sent by SMS the same evening.',
        nameFr: 'Prélèvement pour analyses',
        descriptionFr:
          "Prise de sang ou d'urine pour des analyses comme le paludisme, la typhoïde, la numération ou le cholestérol. Apportez l'ordonnance\u00a0; les résultats arrivent par SMS le soir même.",
        durationMinutes: 10,
        capacity: 3,
      },
    ],
  },
  {
    slug: 'mefou-telecom-avenue-kennedy',
    name: 'Mefou Télécom – Espace Clients Avenue Kennedy',
    category: 'telecom',
    city: 'Yaoundé',
    location: 'Avenue Kennedy, Centre-ville, Yaoundé',
    email: 'espace.kennedy@mefoutelecom.cm',
    startTime: '08:00',
    endTime: '17:30',
    logo: 'mefou-telecom-avenue-kennedy.svg',
    services: [
      {
        slug: 'sim-registration',
        name: 'SIM card purchase and registration',
        description:
          'Buy a new SIM card and register it in your name as the law requires. Bring your original CNI or passport; a photo is taken at the counter.',
        nameFr: 'Achat et identification de carte SIM',
        descriptionFr:
          "Achetez une nouvelle carte SIM et faites-la identifier à votre nom comme la loi l'exige. Apportez votre CNI ou passeport original\u00a0; une photo est prise au guichet.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'sim-swap',
        name: 'SIM replacement (SIM swap)',
        description:
          'Replace a lost, stolen or damaged SIM card while keeping your number. Bring the ID used at registration and, if stolen, the police declaration.',
        nameFr: 'Remplacement de carte SIM',
        descriptionFr:
          "Remplacez une carte SIM perdue, volée ou abîmée en gardant votre numéro. Apportez la pièce utilisée à l'identification et, en cas de vol, la déclaration de police.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'mobile-money-account',
        name: 'Mobile money account opening',
        description:
          'Open a mobile money wallet or raise its transaction limits. Bring your CNI and the phone with the SIM card registered in your name.',
        nameFr: 'Ouverture de compte mobile money',
        descriptionFr:
          'Ouvrez un portefeuille mobile money ou relevez ses plafonds de transaction. Apportez votre CNI et le téléphone avec la carte SIM enregistrée à votre nom.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'home-internet-subscription',
        name: 'Home internet subscription',
        description:
          "Subscribe to a 4G home internet box and choose a monthly data plan. Bring your CNI, a location plan and the first month's payment.",
        nameFr: 'Abonnement internet à domicile',
        descriptionFr:
          'Abonnez-vous à une box internet 4G à domicile et choisissez un forfait mensuel. Apportez votre CNI, un plan de localisation et le paiement du premier mois.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'billing-complaint',
        name: 'Billing or credit complaint',
        description:
          'Report airtime or data deducted without consent, or a failed bundle purchase. Bring your phone, your ID and the date and time of each disputed transaction.',
        nameFr: 'Réclamation sur crédit ou facturation',
        descriptionFr:
          "Signalez du crédit ou des données prélevés sans votre accord, ou un forfait non reçu. Apportez votre téléphone, votre CNI et la date et l'heure de chaque opération contestée.",
        durationMinutes: 15,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'mezam-water-nkwen',
    name: 'Mezam Water Services – Nkwen Customer Office',
    category: 'utility',
    city: 'Bamenda',
    location: 'Foncha Street, Nkwen, Bamenda',
    email: 'nkwen@mezamwater.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'mezam-water-nkwen.svg',
    services: [
      {
        slug: 'new-water-connection',
        name: 'New water connection',
        description:
          'Apply for a new water meter for a house or compound. Bring your ID card, land certificate or tenancy agreement, a location sketch and the plumbing estimate.',
        nameFr: "Nouveau branchement d'eau",
        descriptionFr:
          "Demandez un nouveau compteur d'eau pour une maison ou une concession. Apportez votre pièce d'identité, votre titre foncier ou bail, un croquis de localisation et le devis du plombier.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'bill-complaint',
        name: 'Bill complaint',
        description:
          'Contest a bill that looks too high or was estimated without a meter reading. Bring the disputed bill, your last paid receipt and a photo of the meter.',
        nameFr: 'Réclamation sur facture',
        descriptionFr:
          'Contestez une facture trop élevée ou estimée sans relevé du compteur. Apportez la facture contestée, votre dernier reçu de paiement et une photo du compteur.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'leak-or-meter-fault',
        name: 'Leak or meter fault report',
        description:
          'Report a leaking pipe before the meter, a broken meter or low pressure in your quarter. Bring your customer number and photos; a plumber visit is scheduled.',
        nameFr: 'Signalement de fuite ou de panne de compteur',
        descriptionFr:
          'Signalez une fuite avant le compteur, un compteur cassé ou une faible pression dans votre quartier. Apportez votre numéro client et des photos\u00a0; un plombier passera.',
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'subscription-transfer',
        name: 'Subscription transfer',
        description:
          "Move an existing water contract into a new occupant's name. Bring both parties' ID cards, the last paid bill and the new tenancy agreement or sale deed.",
        nameFr: "Transfert d'abonnement",
        descriptionFr:
          "Transférez un contrat d'eau existant au nom d'un nouvel occupant. Apportez les pièces d'identité des deux parties, la dernière facture payée et le nouveau bail ou l'acte de vente.",
        durationMinutes: 20,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'banque-hauts-plateaux-banengo',
    // A bank with agencies in three cities: the demo of branches.
    name: 'Banque des Hauts Plateaux',
    branchName: 'Banengo',
    category: 'bank',
    city: 'Bafoussam',
    location: 'Carrefour Banengo, Bafoussam',
    email: 'agence.banengo@banquehautsplateaux.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'banque-hauts-plateaux-banengo.svg',
    latitude: 5.4781,
    longitude: 10.4176,
    branches: [
      {
        slug: 'banque-hauts-plateaux-marche-b',
        branchName: 'Marché B',
        city: 'Bafoussam',
        location: 'Rue du Marché B, Bafoussam',
        email: 'agence.marcheb@banquehautsplateaux.cm',
        latitude: 5.4737,
        longitude: 10.4231,
      },
      {
        slug: 'banque-hauts-plateaux-bonapriso',
        branchName: 'Bonapriso',
        city: 'Douala',
        location: 'Rue Njo-Njo, Bonapriso, Douala',
        email: 'agence.bonapriso@banquehautsplateaux.cm',
        latitude: 4.0311,
        longitude: 9.6986,
      },
      {
        slug: 'banque-hauts-plateaux-mvan',
        branchName: 'Mvan',
        city: 'Yaoundé',
        location: 'Carrefour Mvan, Yaoundé',
        email: 'agence.mvan@banquehautsplateaux.cm',
        latitude: 3.8327,
        longitude: 11.5213,
      },
    ],
    services: [
      {
        slug: 'account-opening',
        name: 'Personal account opening',
        description:
          'Open a current or savings account with a customer adviser. Bring your CNI, two passport photos, a location plan, a recent utility bill and 10,000 XAF.',
        nameFr: 'Ouverture de compte particulier',
        descriptionFr:
          "Ouvrez un compte courant ou d'épargne avec un conseiller clientèle. Apportez votre CNI, deux photos d'identité, un plan de localisation, une facture d'eau ou d'électricité et 10\u00a0000\u00a0FCFA.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'trader-loan-consultation',
        name: 'Trader and farmer loan consultation',
        description:
          'Discuss a stock, equipment or harvest financing loan with a credit officer. Bring six months of account statements, your business licence and a short activity description.',
        nameFr: 'Prêt commerçants et agriculteurs',
        descriptionFr:
          "Étudiez avec un chargé de crédit un prêt pour du stock, du matériel ou une récolte. Apportez six mois de relevés, votre patente et une brève description de l'activité.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'Bank card collection',
        description:
          'Collect your new or renewed debit card and sealed PIN envelope. Bring the original ID used at account opening; the card is activated at the counter.',
        nameFr: 'Retrait de carte bancaire',
        descriptionFr:
          "Retirez votre carte de débit, neuve ou renouvelée, et son code sous pli. Apportez la pièce d'identité utilisée à l'ouverture du compte\u00a0; la carte est activée au guichet.",
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'large-cash-withdrawal',
        name: 'Large cash withdrawal',
        description:
          'Withdraw more than 2,000,000 XAF in cash at a private counter. Book at least one day ahead and bring your CNI and cheque book or withdrawal slip.',
        nameFr: "Retrait d'espèces important",
        descriptionFr:
          "Retirez plus de 2\u00a0000\u00a0000\u00a0FCFA en espèces à un guichet privé. Réservez au moins un jour à l'avance et apportez votre CNI et un chéquier ou bordereau.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'account-statement-attestation',
        name: 'Statement and bank attestation',
        description:
          'Request certified account statements or a bank attestation for a visa, tender or school file. Bring your CNI, account number and the stamp fee.',
        nameFr: 'Relevés et attestation bancaire',
        descriptionFr:
          "Demandez des relevés de compte certifiés ou une attestation bancaire pour un visa, un appel d'offres ou un dossier scolaire. Apportez votre CNI, votre numéro de compte et le timbre.",
        durationMinutes: 15,
        capacity: 2,
      },
    ],
  },
  {
    slug: 'etat-civil-yaounde-4e-ekounou',
    name: "Centre d'État Civil de Yaoundé 4e – Ekounou",
    category: 'civil-registry',
    city: 'Yaoundé',
    location: 'Carrefour Ekounou, Yaoundé',
    email: 'etatcivil@mairie-yaounde4.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'etat-civil-yaounde-4e-ekounou.svg',
    services: [
      {
        slug: 'birth-certificate-copy',
        name: 'Certified copy of birth certificate',
        description:
          'Obtain certified copies of a birth certificate registered at this centre. Bring your CNI and the original certificate, or its number and year of registration.',
        nameFr: "Copie certifiée d'acte de naissance",
        descriptionFr:
          "Obtenez des copies certifiées d'un acte de naissance enregistré dans ce centre. Apportez votre CNI et l'acte original, ou son numéro et son année d'enregistrement.",
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'late-birth-registration',
        name: 'Late birth registration (court ruling)',
        description:
          'Transcribe a court ruling (jugement supplétif) into the birth register when a birth was never declared. Bring the certified ruling, your CNI and two witnesses.',
        nameFr: "Transcription d'un jugement supplétif",
        descriptionFr:
          "Faites transcrire un jugement supplétif dans le registre des naissances lorsqu'une naissance n'a jamais été déclarée. Apportez le jugement certifié, votre CNI et deux témoins.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'marriage-date-booking',
        name: 'Marriage file and date booking',
        description:
          "Submit the marriage file and book a celebration date at the town hall. Bring both spouses' birth certificates, CNI, medical certificates and the witnesses' ID copies.",
        nameFr: 'Dossier de mariage et réservation de la date',
        descriptionFr:
          'Déposez le dossier de mariage et réservez une date à la mairie. Apportez les actes de naissance, CNI et certificats médicaux des époux, et les pièces des témoins.',
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'life-certificate',
        name: 'Life certificate (certificat de vie)',
        description:
          'Obtain a life certificate for a pension or social insurance file. The pensioner comes in person with their CNI, pension number and one fiscal stamp.',
        nameFr: 'Certificat de vie',
        descriptionFr:
          "Obtenez un certificat de vie pour un dossier de pension ou d'assurance sociale. Le retraité vient en personne avec sa CNI, son numéro de pension et un timbre fiscal.",
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'copy-certification',
        name: 'Certification of copies',
        description:
          'Have photocopies of diplomas, birth certificates or ID cards certified true to the original. Bring the originals, clear photocopies and one fiscal stamp per page.',
        nameFr: 'Certification de copies',
        descriptionFr:
          "Faites certifier conformes à l'original des photocopies de diplômes, actes de naissance ou cartes d'identité. Apportez les originaux, des photocopies lisibles et un timbre fiscal par page.",
        durationMinutes: 10,
        capacity: 3,
      },
    ],
  },
];

export const demoBookingCustomers: { name: string; email: string; phone: string }[] = [
  { name: 'Ngono Marie', email: 'ngono.marie@example.com', phone: '+237677412358' },
  { name: 'Tabi Emmanuel', email: 'tabi.emmanuel@example.com', phone: '+237651238746' },
  { name: 'Mbarga Jean-Paul', email: 'mbarga.jeanpaul@example.com', phone: '+237699054312' },
  { name: 'Fon Blessing', email: 'fon.blessing@example.com', phone: '+237680347125' },
  { name: 'Kamga Sylvie', email: 'kamga.sylvie@example.com', phone: '+237677890214' },
  { name: 'Ngwa Divine', email: 'ngwa.divine@example.com', phone: '+237653781409' },
  { name: 'Essomba Christelle', email: 'essomba.christelle@example.com', phone: '+237696215874' },
  { name: 'Che Godlove', email: 'che.godlove@example.com', phone: '+237682460137' },
  { name: 'Fotso Arnaud', email: 'fotso.arnaud@example.com', phone: '+237675139562' },
  { name: 'Ashu Brenda', email: 'ashu.brenda@example.com', phone: '+237650942716' },
  { name: 'Eyenga Florence', email: 'eyenga.florence@example.com', phone: '+237698371045' },
  { name: 'Nfor Stanley', email: 'nfor.stanley@example.com', phone: '+237689506231' },
];

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
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-consultation',
        name: 'Loan consultation',
        description:
          'Discuss a personal, school-fees or SME loan with a credit officer. Bring your last three payslips or business statements for a repayment simulation.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'Bank card collection',
        description:
          'Collect your new or renewed Visa debit card and PIN envelope. Bring the original ID used at account opening; the card is activated at the counter.',
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'international-transfer',
        name: 'International transfer',
        description:
          "Send money abroad or receive a SWIFT transfer. Bring your ID, the beneficiary's full bank details and a supporting invoice or school admission letter.",
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
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'bill-complaint',
        name: 'Bill complaint',
        description:
          'Contest an unusually high or estimated bill. Bring the disputed bill, your last two paid bills and a photo of your meter index taken this week.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'prepaid-meter-issue',
        name: 'Prepaid meter issue',
        description:
          'Get help when your prepaid meter rejects a recharge token or shows an error. Bring your meter number, the last purchase receipt and the displayed code.',
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'subscription-transfer',
        name: 'Subscription transfer',
        description:
          "Transfer an existing contract to the new occupant's name. Bring both parties' CNI, the previous occupant's last paid bill and the new lease agreement.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'reconnection',
        name: 'Reconnection after payment',
        description:
          'Request reconnection after a cut for unpaid bills. Bring the receipt showing all arrears paid and your contract number; a technician visit is scheduled within 48 hours.',
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
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'birth-declaration',
        name: 'Birth declaration',
        description:
          "Declare a newborn's birth within 90 days. Bring the hospital birth declaration form, both parents' CNI and their marriage certificate if married.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'marriage-file-submission',
        name: 'Marriage file submission',
        description:
          "Submit the file to publish the banns and fix a wedding date. Bring both spouses' birth certificates, CNI, medical certificates, residence certificates and witnesses' ID copies.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'death-certificate',
        name: 'Death registration and certificate',
        description:
          "Register a death and obtain the death certificate. Bring the hospital's medical certificate of death, the deceased's CNI and the declarant's own ID.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'copy-certification',
        name: 'Certification of copies',
        description:
          'Have photocopies of diplomas, ID cards or certificates certified true to the original. Bring the originals, clear photocopies and one fiscal stamp per page.',
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
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'prenatal-consultation',
        name: 'Prenatal consultation',
        description:
          'Monthly antenatal visit with a midwife: weight, blood pressure and foetal heartbeat check. Bring your pregnancy booklet, ultrasound reports and latest lab results.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          "Blood or urine sample for prescribed tests such as malaria, full blood count or glucose. Bring the doctor's prescription; fast for eight hours before glucose tests.",
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'paediatric-consultation',
        name: 'Paediatric consultation',
        description:
          "Consultation with a paediatrician for children under 15. Bring the child's health booklet and vaccination card; a parent or guardian must be present.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'child-vaccination',
        name: 'Child vaccination',
        description:
          "Routine childhood immunisation following the national schedule. Bring the child's vaccination card so the nurse can record each dose and the next due date.",
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
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'annual-registration',
        name: 'Annual registration',
        description:
          'Complete administrative registration for the academic year. Bring the tuition payment slip, your student card or admission list extract, two photos and a medical certificate.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'degree-certificate-collection',
        name: 'Degree certificate collection',
        description:
          'Collect your attestation de réussite or final diploma once it is signed. Bring your CNI, your student card and the receipt for the certificate fee.',
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'diploma-authentication',
        name: 'Diploma authentication',
        description:
          'Have diplomas and transcripts authenticated for foreign universities or employers. Bring the originals, photocopies and the fee receipt; authenticated copies are ready after three working days.',
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
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'passport-collection',
        name: 'Passport collection',
        description:
          'Collect your printed passport after receiving the "ready" SMS. Bring the enrolment receipt and your CNI; the holder must come in person to sign.',
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'id-card-enrolment',
        name: 'National ID card enrolment',
        description:
          'Apply for a first or renewed national identity card (CNI). Bring your birth certificate, a residence certificate, the old card if renewing and the fee receipt.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'id-card-collection',
        name: 'National ID card collection',
        description:
          'Collect your new national identity card. Bring the récépissé issued at enrolment; a relative may collect it with a signed proxy and their own ID.',
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'lost-document-declaration',
        name: 'Lost document declaration',
        description:
          'Start the replacement of a lost or stolen passport or CNI. Bring the police loss declaration, a copy of the lost document if available and your birth certificate.',
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
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'antenatal-clinic',
        name: 'Antenatal clinic',
        description:
          'Scheduled antenatal visit with a midwife: blood pressure, weight, foetal heartbeat and counselling. Bring your antenatal card, ultrasound reports and latest lab results.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          'Blood, urine or stool sample collection for tests ordered by your doctor. Bring the lab request form; for fasting tests, eat nothing after 10 pm.',
        durationMinutes: 10,
        capacity: 3,
      },
      {
        slug: 'eye-consultation',
        name: 'Eye consultation',
        description:
          'Eye examination for blurred vision, red or painful eyes, or a glasses prescription. Bring your current glasses, previous prescriptions and your hospital card.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'medical-fitness-certificate',
        name: 'Medical fitness certificate',
        description:
          'Examination for a medical certificate required for employment, school entry or competitive exams. Bring your ID card, two passport photos and your blood group result.',
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
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-consultation',
        name: 'Loan consultation',
        description:
          'Meet a credit officer about a salary, farming or small-business loan. Bring your last three payslips or six months of business records and your account number.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'ATM card collection',
        description:
          'Collect your new or replacement ATM card and PIN. Bring the ID card used to open the account; the card is activated before you leave.',
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'cheque-book-request',
        name: 'Cheque book request',
        description:
          'Order or collect a cheque book for your current account. Bring your ID card and account number; new cheque books are ready about ten working days after ordering.',
        durationMinutes: 15,
        capacity: 1,
      },
      {
        slug: 'salary-domiciliation',
        name: 'Salary domiciliation',
        description:
          "Move your civil-servant or company salary to this bank. Bring your ID, latest payslip, employer's attestation and the domiciliation form signed by your employer.",
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
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'tax-clearance-certificate',
        name: 'Tax clearance certificate',
        description:
          'Request an attestation de non-redevance for public tenders or bank files. Bring your NIU, your latest tax returns and receipts showing all taxes are paid.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'tax-return-assistance',
        name: 'Tax return filing assistance',
        description:
          'An officer helps you file your monthly or annual return on the online tax portal. Bring your NIU, portal login, sales records and previous payment receipts.',
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'business-licence-patente',
        name: 'Business licence (patente)',
        description:
          "Calculate and obtain your annual business licence. Bring your NIU, last year's patente, your turnover declaration and a location plan of your shop.",
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'property-tax-assessment',
        name: 'Property tax assessment',
        description:
          "Assessment and payment guidance for property tax (impôt foncier) on land or buildings. Bring the land title or sale agreement, your NIU and last year's notice.",
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
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'daily-savings-plan',
        name: 'Daily savings plan',
        description:
          'Set up a daily or weekly savings plan collected by our field agent. Bring your member card and the exact location of your market stall or shop.',
        durationMinutes: 20,
        capacity: 2,
      },
      {
        slug: 'microcredit-application',
        name: 'Microcredit application',
        description:
          "Apply for a business loan from 50,000 to 2,000,000 XAF. Bring your member card, a short business description, three months of savings history and a guarantor's CNI.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'loan-repayment-review',
        name: 'Loan repayment review',
        description:
          'Review your repayment schedule, reschedule a late instalment or repay early. Bring your member card and loan contract; any penalties are calculated on the spot.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'mobile-money-linking',
        name: 'Mobile money linking',
        description:
          'Link your savings account to your mobile money wallet to deposit and withdraw by phone. Bring your CNI and the phone holding the registered SIM card.',
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
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'gynaecology-consultation',
        name: 'Gynaecology consultation',
        description:
          'Consultation with a gynaecologist for family planning, irregular cycles or a cervical screening. Bring your health booklet and any previous smear or ultrasound reports.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'ultrasound-scan',
        name: 'Ultrasound scan',
        description:
          "Abdominal, pelvic or pregnancy ultrasound performed by a sonographer. Bring the doctor's request form; drink one litre of water an hour before a pelvic scan.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'dental-check-up',
        name: 'Dental check-up',
        description:
          'Examination, scaling and advice from a dentist for toothache, bleeding gums or a routine check. Bring previous dental X-rays and a list of your medicines.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'lab-sample-collection',
        name: 'Lab sample collection',
        description:
          'Blood or urine sample for tests such as malaria, typhoid, full blood count or cholesterol. Bring the prescription; results are sent by SMS the same evening.',
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
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'sim-swap',
        name: 'SIM replacement (SIM swap)',
        description:
          'Replace a lost, stolen or damaged SIM card while keeping your number. Bring the ID used at registration and, if stolen, the police declaration.',
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'mobile-money-account',
        name: 'Mobile money account opening',
        description:
          'Open a mobile money wallet or raise its transaction limits. Bring your CNI and the phone with the SIM card registered in your name.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'home-internet-subscription',
        name: 'Home internet subscription',
        description:
          "Subscribe to a 4G home internet box and choose a monthly data plan. Bring your CNI, a location plan and the first month's payment.",
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'billing-complaint',
        name: 'Billing or credit complaint',
        description:
          'Report airtime or data deducted without consent, or a failed bundle purchase. Bring your phone, your ID and the date and time of each disputed transaction.',
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
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'bill-complaint',
        name: 'Bill complaint',
        description:
          'Contest a bill that looks too high or was estimated without a meter reading. Bring the disputed bill, your last paid receipt and a photo of the meter.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'leak-or-meter-fault',
        name: 'Leak or meter fault report',
        description:
          'Report a leaking pipe before the meter, a broken meter or low pressure in your quarter. Bring your customer number and photos; a plumber visit is scheduled.',
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'subscription-transfer',
        name: 'Subscription transfer',
        description:
          "Move an existing water contract into a new occupant's name. Bring both parties' ID cards, the last paid bill and the new tenancy agreement or sale deed.",
        durationMinutes: 20,
        capacity: 1,
      },
    ],
  },
  {
    slug: 'banque-hauts-plateaux-banengo',
    name: 'Banque des Hauts Plateaux – Agence Banengo',
    category: 'bank',
    city: 'Bafoussam',
    location: 'Carrefour Banengo, Bafoussam',
    email: 'agence.banengo@banquehautsplateaux.cm',
    startTime: '07:30',
    endTime: '15:30',
    logo: 'banque-hauts-plateaux-banengo.svg',
    services: [
      {
        slug: 'account-opening',
        name: 'Personal account opening',
        description:
          'Open a current or savings account with a customer adviser. Bring your CNI, two passport photos, a location plan, a recent utility bill and 10,000 XAF.',
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'trader-loan-consultation',
        name: 'Trader and farmer loan consultation',
        description:
          'Discuss a stock, equipment or harvest financing loan with a credit officer. Bring six months of account statements, your business licence and a short activity description.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'card-collection',
        name: 'Bank card collection',
        description:
          'Collect your new or renewed debit card and sealed PIN envelope. Bring the original ID used at account opening; the card is activated at the counter.',
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'large-cash-withdrawal',
        name: 'Large cash withdrawal',
        description:
          'Withdraw more than 2,000,000 XAF in cash at a private counter. Book at least one day ahead and bring your CNI and cheque book or withdrawal slip.',
        durationMinutes: 20,
        capacity: 1,
      },
      {
        slug: 'account-statement-attestation',
        name: 'Statement and bank attestation',
        description:
          'Request certified account statements or a bank attestation for a visa, tender or school file. Bring your CNI, account number and the stamp fee.',
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
        durationMinutes: 15,
        capacity: 2,
      },
      {
        slug: 'late-birth-registration',
        name: 'Late birth registration (court ruling)',
        description:
          'Transcribe a court ruling (jugement supplétif) into the birth register when a birth was never declared. Bring the certified ruling, your CNI and two witnesses.',
        durationMinutes: 30,
        capacity: 1,
      },
      {
        slug: 'marriage-date-booking',
        name: 'Marriage file and date booking',
        description:
          "Submit the marriage file and book a celebration date at the town hall. Bring both spouses' birth certificates, CNI, medical certificates and the witnesses' ID copies.",
        durationMinutes: 45,
        capacity: 1,
      },
      {
        slug: 'life-certificate',
        name: 'Life certificate (certificat de vie)',
        description:
          'Obtain a life certificate for a pension or social insurance file. The pensioner comes in person with their CNI, pension number and one fiscal stamp.',
        durationMinutes: 10,
        capacity: 2,
      },
      {
        slug: 'copy-certification',
        name: 'Certification of copies',
        description:
          'Have photocopies of diplomas, birth certificates or ID cards certified true to the original. Bring the originals, clear photocopies and one fiscal stamp per page.',
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

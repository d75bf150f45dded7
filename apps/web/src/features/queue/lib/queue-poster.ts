import { jsPDF } from 'jspdf';
import QRCode from 'qrcode';

/**
 * The poster's words, in both languages on the one page: the people at a door in Cameroon
 * read French or English whatever the admin's screen is set to. Straight apostrophes only:
 * the PDF's built-in font has no curly ones in every viewer.
 */
export const POSTER_TEXT = {
  fr: {
    title: "Rejoignez la file d'attente",
    steps: [
      "1. Scannez ce code avec l'appareil photo de votre téléphone.",
      '2. Choisissez votre service et donnez votre nom.',
      '3. Gardez la page ouverte : elle vous dit votre place et le guichet où aller.',
    ],
    help: "Pas de smartphone ? Adressez-vous à l'accueil.",
  },
  en: {
    title: 'Join the queue',
    steps: [
      "1. Scan this code with your phone's camera.",
      '2. Choose your service and give your name.',
      '3. Keep the page open: it shows your place and the counter to go to.',
    ],
    help: 'No smartphone? Ask at the front desk.',
  },
} as const;

/** "qless-poster-agence-akwa.pdf": the organization's name as a file name. */
export function posterFileName(organizationName: string): string {
  const slug = organizationName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `qless-poster-${slug || 'queue'}.pdf`;
}

/**
 * The A4 poster for the door: the organization's name, a big QR code of the join page
 * (`joinUrl`, absolute) and how to use it, French first then English, on one page.
 */
export async function renderPoster(input: {
  organizationName: string;
  joinUrl: string;
  productName: string;
}): Promise<jsPDF> {
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const brand: [number, number, number] = [11, 94, 215];
  const ink: [number, number, number] = [20, 27, 45];
  const muted: [number, number, number] = [70, 80, 100];
  const width = 210;
  const center = width / 2;

  doc.setFillColor(...brand);
  doc.rect(0, 0, width, 34, 'F');
  doc.setTextColor(255, 255, 255);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(24);
  const name = doc.splitTextToSize(input.organizationName, 186) as string[];
  doc.text(name.slice(0, 2), center, name.length > 1 ? 15 : 21, { align: 'center' });

  doc.setTextColor(...ink);
  doc.setFontSize(30);
  doc.text(POSTER_TEXT.fr.title, center, 54, { align: 'center' });
  doc.setTextColor(...muted);
  doc.setFontSize(22);
  doc.text(POSTER_TEXT.en.title, center, 66, { align: 'center' });

  // Level M: a URL of ~60 characters stays a small version, so each module prints large
  // and reads from a metre away on a cheap camera.
  const qr = await QRCode.toDataURL(input.joinUrl, {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 1000,
  });
  const size = 118;
  doc.addImage(qr, 'PNG', center - size / 2, 74, size, size);
  doc.setTextColor(...ink);
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(11);
  doc.text(input.joinUrl, center, 198, { align: 'center', maxWidth: 186 });

  const column = (x: number, text: (typeof POSTER_TEXT)['fr' | 'en']) => {
    let y = 214;
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(13);
    doc.setTextColor(...ink);
    for (const step of text.steps) {
      const lines = doc.splitTextToSize(step, 84) as string[];
      doc.text(lines, x, y);
      y += lines.length * 6 + 3;
    }
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.text(doc.splitTextToSize(text.help, 84) as string[], x, y + 2);
  };
  doc.setDrawColor(220, 226, 236);
  doc.line(center, 208, center, 270);
  column(14, POSTER_TEXT.fr);
  column(center + 7, POSTER_TEXT.en);

  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  doc.setTextColor(...muted);
  doc.text(input.productName, center, 287, { align: 'center' });
  return doc;
}

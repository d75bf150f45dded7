#!/usr/bin/env node
/**
 * The board's recorded words (decision 137), made once and committed under
 * apps/web/public/voice/{fr,en}/: `node scripts/voice-clips.mjs` (needs Debian's espeak-ng and
 * opus-tools: `apt-get install -y espeak-ng opus-tools`; nothing in the build or the tests runs
 * it). Each clip is one word or number said by espeak-ng's French (fr) or British English
 * (en-gb) voice at 150 words a minute, encoded as Ogg Opus at 16 kbit/s mono. The list of
 * clips is the web app's (features/queue-public/lib/call-clips.ts), read from its manifest.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'apps/web/public/voice');

const FR_NUMBERS = [
  '',
  ...'un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept dix-huit dix-neuf'.split(
    ' ',
  ),
];
const EN_NUMBERS = [
  '',
  ...'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  ),
];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

/** Clip name → what the voice says. */
const CLIPS = {
  fr: {
    numero: 'Le numéro',
    guichet: 'au guichet',
    et: 'et',
    cent: 'cent',
    ...Object.fromEntries(LETTERS.map((l) => [`l-${l.toLowerCase()}`, `${l}.`])),
    ...Object.fromEntries(FR_NUMBERS.slice(1).map((w, i) => [`n-${i + 1}`, w])),
    'n-20': 'vingt',
    'n-30': 'trente',
    'n-40': 'quarante',
    'n-50': 'cinquante',
    'n-60': 'soixante',
    'n-80': 'quatre-vingt',
    'n-80s': 'quatre-vingts',
  },
  en: {
    numero: 'Number',
    guichet: 'counter',
    hundred: 'hundred',
    and: 'and',
    ...Object.fromEntries(LETTERS.map((l) => [`l-${l.toLowerCase()}`, `${l}.`])),
    ...Object.fromEntries(EN_NUMBERS.slice(1).map((w, i) => [`n-${i + 1}`, w])),
    'n-20': 'twenty',
    'n-30': 'thirty',
    'n-40': 'forty',
    'n-50': 'fifty',
    'n-60': 'sixty',
    'n-70': 'seventy',
    'n-80': 'eighty',
    'n-90': 'ninety',
  },
};
const VOICE = { fr: 'fr', en: 'en-gb' };

const work = mkdtempSync(join(tmpdir(), 'qless-voice-'));
let total = 0;
let count = 0;
try {
  for (const [lang, clips] of Object.entries(CLIPS)) {
    mkdirSync(join(OUT, lang), { recursive: true });
    for (const [name, text] of Object.entries(clips)) {
      const wav = join(work, `${lang}-${name}.wav`);
      const ogg = join(OUT, lang, `${name}.ogg`);
      execFileSync('espeak-ng', ['-v', VOICE[lang], '-s', '150', '-w', wav, text]);
      execFileSync('opusenc', ['--quiet', '--bitrate', '16', '--downmix-mono', wav, ogg]);
      total += statSync(ogg).size;
      count += 1;
    }
  }
  writeFileSync(
    join(OUT, 'README.txt'),
    'Made by scripts/voice-clips.mjs with espeak-ng (GPL-3.0-or-later; the clips are its output,\n' +
      'which the GPL does not cover) and opusenc. Decision 137.\n',
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${count} clips, ${(total / 1024).toFixed(1)} KiB in ${OUT}`);

import type { BrowserContext, Page } from 'playwright-core';

/** One utterance the page handed to speechSynthesis.speak. */
export interface Spoken {
  text: string;
  lang: string;
  /** performance.now() in the page when speak() was called. */
  at: number;
}

/**
 * Replaces the page's window.speechSynthesis before its scripts run (headless Chromium has
 * no voices): every utterance given to speak() is recorded, in order, and "ends" after
 * `utteranceMs` (its onend fires), one at a time as a real engine says them. Read them with
 * spokenOf(page). Use it for any browser test of the board's announcements (issue 30).
 */
export async function stubSpeech(context: BrowserContext, utteranceMs = 200): Promise<void> {
  // A script string: it runs in the page (this file is compiled without the DOM's types).
  await context.addInitScript(`(() => {
    const ms = ${Number(utteranceMs)};
    const spoken = [];
    const line = [];
    let speaking = false;
    const run = () => {
      const next = line.shift();
      if (!next) {
        speaking = false;
        return;
      }
      speaking = true;
      spoken.push({ text: next.text, lang: next.lang, at: performance.now() });
      setTimeout(() => {
        if (next.onend) next.onend(new Event('end'));
        run();
      }, ms);
    };
    const stub = {
      speak(utterance) {
        line.push(utterance);
        if (!speaking) run();
      },
      cancel() {
        line.length = 0;
      },
      getVoices: () => [],
      pause() {},
      resume() {},
      get speaking() {
        return speaking;
      },
      get pending() {
        return line.length > 0;
      },
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(window, 'speechSynthesis', { value: stub, configurable: true });
    window.__spoken = spoken;
  })();`);
}

/** What the page has said so far, in order. */
export function spokenOf(page: Page): Promise<Spoken[]> {
  return page.evaluate('window.__spoken ?? []') as Promise<Spoken[]>;
}

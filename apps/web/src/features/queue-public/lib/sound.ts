/**
 * The sounds of a call: a two-tone chime made with WebAudio (no file to download), a
 * vibration, and the call said from the recorded words bundled with the app (decision 137),
 * else with the Web Speech API where the device has a voice. Browsers start audio only after
 * a gesture: `unlockAudio()` is called from one (a tap, a key).
 */
let context: AudioContext | null = null;

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as {
    AudioContext?: AudioContextClass;
    webkitAudioContext?: AudioContextClass;
  };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/** Creates (once) and resumes the page's one AudioContext; true when sound can play. */
export function unlockAudio(): boolean {
  const Context = audioContextClass();
  if (!Context) return false;
  try {
    context ??= new Context();
    if (context.state === 'suspended') void context.resume();
    return true;
  } catch {
    return false;
  }
}

/** Whether a gesture has already unlocked sound on this page. */
export function audioUnlocked(): boolean {
  return context !== null && context.state === 'running';
}

/** A two-note "ding-dong" (about 1 s). Silent until unlocked. */
export function chime(): void {
  if (!context) return;
  const start = context.currentTime + 0.02;
  const notes: [number, number][] = [
    [880, 0],
    [660, 0.4],
  ];
  for (const [frequency, offset] of notes) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    const at = start + offset;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.5, at + 0.03);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.7);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.75);
    // Disconnected once played: nothing of a call stays in the audio graph.
    oscillator.onended = () => {
      oscillator.disconnect();
      gain.disconnect();
    };
  }
}

/** Each clip's bytes, fetched once (small: about 2 KB); decoded again at each call. */
const clipBytes = new Map<string, Promise<ArrayBuffer>>();

function clipBuffer(audio: AudioContext, url: string): Promise<AudioBuffer> {
  let bytes = clipBytes.get(url);
  if (!bytes) {
    bytes = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.arrayBuffer();
    });
    // A failed fetch is tried again at the next call.
    bytes.catch(() => clipBytes.delete(url));
    clipBytes.set(url, bytes);
  }
  // decodeAudioData takes its buffer: a copy each time.
  return bytes.then((b) => audio.decodeAudioData(b.slice(0)));
}

/**
 * Plays recorded words back to back; resolves once the last has played, rejects when one
 * cannot be fetched or decoded (the caller then speaks, or only chimes). Silent until unlocked.
 */
export async function playClips(urls: readonly string[]): Promise<void> {
  const audio = context;
  if (audio?.state !== 'running') throw new Error('Audio is not unlocked');
  const buffers = await Promise.all(urls.map((url) => clipBuffer(audio, url)));
  let at = audio.currentTime + 0.05;
  const sources = buffers.map((buffer) => {
    const source = audio.createBufferSource();
    source.buffer = buffer;
    source.connect(audio.destination);
    source.start(at);
    at += buffer.duration;
    return source;
  });
  await new Promise<void>((resolve) => {
    const last = sources.at(-1);
    if (!last) return resolve();
    last.onended = () => resolve();
  });
  for (const source of sources) source.disconnect();
}

/** A short buzz pattern on phones that vibrate (ignored elsewhere). */
export function vibrate(): void {
  try {
    navigator.vibrate?.([300, 150, 300, 150, 600]);
  } catch {
    // Not allowed without a gesture in some browsers: the sound and the screen still say it.
  }
}

export function speechAvailable(): boolean {
  return typeof window !== 'undefined' && 'speechSynthesis' in window;
}

function voiceFor(lang: string): SpeechSynthesisVoice | null {
  const voices = window.speechSynthesis.getVoices();
  const prefix = lang.slice(0, 2);
  return (
    voices.find((v) => v.lang.toLowerCase() === lang.toLowerCase()) ??
    voices.find((v) => v.lang.toLowerCase().startsWith(prefix)) ??
    null
  );
}

/** The longest a call may take to say before the next one starts (a stuck engine). */
const CALL_TIMEOUT_MS = 12_000;
/**
 * Calls waiting their turn. Every call of a busy minute is said (twenty counters calling at
 * once are twenty calls); only beyond this, in a flood no hall makes, are the oldest dropped,
 * so that nothing grows without bound.
 */
const MAX_WAITING = 24;
/** With the sound off, how long each call holds the banner before the next one. */
export const SILENT_CALL_MS = 4_000;

/** A call to ring, show and say. */
export interface CallToSay {
  fr: string;
  en: string;
  /** The recorded words of the call (call-clips.ts), or null: the voice says the texts. */
  clips?: { fr: string[]; en: string[] } | null;
  /** When its turn comes (the board shows it in the banner then). */
  onStart?: () => void;
  /** Asked when its turn comes: a call that is over by then (started, moved) is skipped. */
  stillWanted?: () => boolean;
}

export interface Announcer {
  announce: (call: CallToSay) => void;
  /** Sound on: the calls from now on ring and are spoken; off: each is only shown in turn. */
  setSound: (on: boolean) => void;
  dispose: () => void;
}

/**
 * Takes calls one after the other, each with its own turn: shown (onStart), then — sound on —
 * the chime, French, then English; sound off, a few seconds each. A bounded line of waiting
 * calls and one timer: a burst of calls (or a day of them) keeps nothing growing.
 */
export function createAnnouncer(options: { sound?: boolean } = {}): Announcer {
  const waiting: CallToSay[] = [];
  let sound = options.sound ?? true;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  /** The call being said: a late callback of an earlier one (cancelled, timed out) is ignored. */
  let current = 0;

  const finish = () => {
    clearTimeout(timer);
    timer = undefined;
    busy = false;
    next();
  };

  const say = (id: number, text: string, lang: string, then: () => void) => {
    if (id !== current) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    const voice = voiceFor(lang);
    if (voice) utterance.voice = voice;
    utterance.rate = 0.9;
    const done = () => {
      utterance.onend = null;
      utterance.onerror = null;
      if (id === current) then();
    };
    utterance.onend = done;
    utterance.onerror = done;
    window.speechSynthesis.speak(utterance);
  };

  function next() {
    if (disposed || busy) return;
    let call = waiting.shift();
    while (call?.stillWanted && !call.stillWanted()) call = waiting.shift();
    if (!call) return;
    busy = true;
    current += 1;
    const id = current;
    call.onStart?.();
    if (!sound) {
      timer = setTimeout(finish, SILENT_CALL_MS);
      return;
    }
    chime();
    const words = call;
    const clips = words.clips ?? null;
    if (!clips && !speechAvailable()) {
      // The chime alone, spaced so that two calls are two chimes.
      timer = setTimeout(finish, 1500);
      return;
    }
    const speak = () => {
      if (!speechAvailable()) return finish();
      say(id, words.fr, 'fr-FR', () => say(id, words.en, 'en-GB', finish));
    };
    // The words once the chime has rung: the recorded ones, else the device's voice; a stuck
    // engine is given up after a while.
    timer = setTimeout(() => {
      timer = setTimeout(() => {
        current += 1;
        if (speechAvailable()) window.speechSynthesis.cancel();
        finish();
      }, CALL_TIMEOUT_MS);
      if (!clips) return speak();
      playClips(clips.fr)
        .then(() => (id === current ? playClips(clips.en) : undefined))
        .then(
          () => {
            if (id === current) finish();
          },
          () => {
            if (id === current) speak();
          },
        );
    }, 1100);
  }

  return {
    announce(call) {
      if (disposed) return;
      waiting.push(call);
      while (waiting.length > MAX_WAITING) waiting.shift();
      next();
    },
    setSound(on) {
      sound = on;
    },
    dispose() {
      disposed = true;
      current += 1;
      waiting.length = 0;
      clearTimeout(timer);
      if (sound && speechAvailable()) window.speechSynthesis.cancel();
    },
  };
}

/**
 * The network and CPU profiles `npm run lighthouse` simulates, with their targets, and the CPU
 * slowdown calibrated to the machine (decision 115).
 */
import type { Config } from 'lighthouse';
import { screenEmulationMetrics, throttling } from 'lighthouse/core/config/constants.js';

export interface Targets {
  /** Null: not a target on this profile (issue 22 asks 2G for its LCP and CLS only). */
  performance: number | null;
  lcpMs: number;
  cls: number;
}

/**
 * The phone every load is simulated on: Lighthouse's 4x on the middle of its high-end desktop
 * class (benchmarkIndex 1750, docs/throttling.md), a mid-tier phone of index 437.5.
 */
export const TARGET_DEVICE_INDEX = 1750 / 4;
/** Bounds of the calibrated slowdown: a machine outside them is measured at the bound. */
const CPU_MULTIPLIER_BOUNDS = [1, 12] as const;

/** The CPU slowdown that makes this load's machine (its benchmarkIndex) the target phone. */
export function calibratedMultiplier(benchmarkIndex: number): number {
  const [low, high] = CPU_MULTIPLIER_BOUNDS;
  const multiplier = benchmarkIndex / TARGET_DEVICE_INDEX;
  return Math.round(Math.min(high, Math.max(low, multiplier)) * 10) / 10;
}

// Regular 3G as Lighthouse defines it: 300 ms RTT, 700 Kbps, 4x CPU.
const REGULAR_3G = throttling.mobileRegular3G;
if (
  REGULAR_3G.rttMs !== 300 ||
  REGULAR_3G.throughputKbps !== 700 ||
  REGULAR_3G.cpuSlowdownMultiplier !== 4
) {
  throw new Error(`Lighthouse's regular 3G changed: ${JSON.stringify(REGULAR_3G)}`);
}
/** Issue 22's weak 2G, derived as Lighthouse derives its own profiles from RTT and throughput. */
const WEAK_2G = {
  rttMs: 800,
  throughputKbps: 250,
  requestLatencyMs: 800 * 3.75,
  downloadThroughputKbps: 250 * 0.9,
  uploadThroughputKbps: 250 * 0.9,
  cpuSlowdownMultiplier: 4,
};

export interface Profile {
  name: string;
  label: string;
  throttling: typeof REGULAR_3G;
  targets: Targets;
}

export const PROFILES: Record<string, Profile> = {
  '3g': {
    name: '3g',
    label: 'regular 3G (300 ms RTT, 700 Kbps, simulated)',
    throttling: REGULAR_3G,
    targets: { performance: 95, lcpMs: 2500, cls: 0.02 },
  },
  '2g': {
    name: '2g',
    label: 'weak 2G (800 ms RTT, 250 Kbps, simulated)',
    throttling: WEAK_2G,
    targets: { performance: null, lcpMs: 4000, cls: 0.02 },
  },
};

export function configOf(profile: Profile, cpuSlowdownMultiplier?: number): Config {
  return {
    extends: 'lighthouse:default',
    settings: {
      // The metrics the score is made of (the other audits weigh nothing in it) and two
      // that explain them: a run then gathers only what these need, about twice as fast.
      onlyAudits: [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
        'total-byte-weight',
        'network-requests',
      ],
      disableFullPageScreenshot: true,
      formFactor: 'mobile',
      screenEmulation: screenEmulationMetrics.mobile,
      throttlingMethod: 'simulate',
      throttling: {
        ...profile.throttling,
        cpuSlowdownMultiplier: cpuSlowdownMultiplier ?? profile.throttling.cpuSlowdownMultiplier,
      },
    },
  };
}

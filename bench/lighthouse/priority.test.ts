import { type ChildProcess, spawn } from 'node:child_process';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { favourRenderers, isRenderer, processTree } from './priority';

const started: ChildProcess[] = [];

/** A process that sleeps with the given arguments on its command line (as Chromium's do). */
function sleeper(...args: string[]): ChildProcess {
  const child = spawn('sh', ['-c', 'sleep 30', 'sh', ...args], { stdio: 'ignore' });
  started.push(child);
  return child;
}

/** A "browser": a shell whose children are a renderer, a zygote and a utility process. */
function browser(): ChildProcess {
  const script =
    'sh -c "sleep 30" x --type=renderer & sh -c "sleep 30" x --type=zygote & ' +
    'sh -c "sleep 30" x --type=utility & wait';
  const child = spawn('sh', ['-c', script], { stdio: 'ignore' });
  started.push(child);
  return child;
}

/**
 * The browser's tree once settled: its three shells and the sleep each started. A shell
 * forks before it execs sleep, and the fork carries the shell's arguments for that moment,
 * so the tree is read only when every shell has its sleep.
 */
async function settledTree(pid: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const tree = processTree(pid).filter((p) => p !== pid);
    if (tree.length === 6 && tree.filter(isRenderer).length === 2) return tree;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the processes did not settle');
}

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

describe.runIf(process.platform === 'linux')('the renderer gets the CPU first', () => {
  it('lowers the server, the harness and the browser, never a renderer or zygote', async () => {
    const root = browser();
    const server = sleeper();
    const harness = sleeper();
    const tree = await settledTree(root.pid as number);
    const renderers = tree.filter(isRenderer);
    expect(renderers).toHaveLength(2);

    favourRenderers(root.pid as number, server.pid as number, harness.pid as number);

    expect(getPriority(server.pid)).toBe(19);
    expect(getPriority(harness.pid)).toBe(19);
    expect(getPriority(root.pid)).toBe(10);
    for (const pid of tree) expect(getPriority(pid)).toBe(renderers.includes(pid) ? 0 : 10);
    expect(getPriority()).toBe(0); // the test's own process untouched
  });

  it('leaves alone a process that is gone', () => {
    expect(() => favourRenderers(2 ** 22 + 1, 2 ** 22 + 2, 2 ** 22 + 3)).not.toThrow();
    expect(processTree(2 ** 22 + 1)).toEqual([2 ** 22 + 1]);
  });
});

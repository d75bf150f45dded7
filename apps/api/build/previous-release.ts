import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A release's apps/api and packages/contract (from git, at `commit`) in `into`, on the
 * node_modules of the checkout at `root`: every package as installed today but
 * @qless/contract, which is the release's own. The previous-release test and the topology
 * test build the previous release's server from it (decision 027).
 */
export function checkOutRelease(root: string, commit: string, into: string): void {
  mkdirSync(into, { recursive: true });
  const tar = execFileSync(
    'git',
    ['archive', '--format=tar', commit, 'tsconfig.base.json', 'apps/api', 'packages/contract'],
    { cwd: root, maxBuffer: 256 * 1024 * 1024 },
  );
  execFileSync('tar', ['-x', '-C', into], { input: tar });
  const modules = join(into, 'node_modules');
  mkdirSync(join(modules, '@qless'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === '@qless' || entry.startsWith('.')) continue;
    symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(join(into, 'packages/contract'), join(modules, '@qless/contract'));
}

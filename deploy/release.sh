#!/usr/bin/env bash
# Deploys one commit on the VM (docs/operations.md, "Deploy"; decision 027), as root:
#   deploy/release.sh [git ref]          default: origin/main of /opt/qless/repo
# 1. builds it in a new folder /opt/qless/releases/<time>-<commit> (production dependencies only
#    left installed), 2. runs its migrations once (qless-migrate.service, through /opt/qless/next),
# 3. points /opt/qless/current at it (and /opt/qless/previous at the release it replaces, whose
#    built assets the processes keep serving: WEB_ASSETS_FALLBACK_DIRS), 4. restarts qless@PORT
#    one at a time, each ready (and 3 s more, for nginx to take it back) before the next goes,
#    5. keeps the last 3 releases.
# A failure before step 3 changes nothing that runs; during step 4 the remaining processes keep
# the release they had (run it again, or point `current` back and restart: docs/operations.md).
set -euo pipefail

BASE=${QLESS_BASE:-/opt/qless}
REPO=${QLESS_REPO:-$BASE/repo}
PORTS=${QLESS_PORTS:-3001 3002 3003}
KEEP=3
REF=${1:-origin/main}

say() { echo "release: $*"; }

git -C "$REPO" fetch --quiet origin
commit=$(git -C "$REPO" rev-parse --short=12 "$REF^{commit}")
id="$(date -u +%Y%m%dT%H%M%SZ)-$commit"
dir="$BASE/releases/$id"
say "building $commit in $dir"
mkdir -p "$dir"
git -C "$REPO" archive "$commit" | tar -x -C "$dir"
cd "$dir"
npm ci --no-audit --no-fund --loglevel=error
NODE_ENV=production npm run -s build
# What runs: the API's and the web's production dependencies (no tsx, vite, esbuild).
rm -rf node_modules apps/*/node_modules packages/*/node_modules
npm ci --omit=dev --workspace=@qless/api --workspace=@qless/web --no-audit --no-fund --loglevel=error
chmod -R go-w "$dir"

say "migrating with $id"
ln -sfn "$dir" "$BASE/next"
systemctl start qless-migrate.service
journalctl -u qless-migrate.service -n 1 -o cat --no-pager || true

if [ -L "$BASE/current" ]; then
  old=$(readlink -f "$BASE/current")
  if [ "$old" != "$dir" ]; then ln -sfn "$old" "$BASE/previous.tmp" && mv -T "$BASE/previous.tmp" "$BASE/previous"; fi
fi
ln -sfn "$dir" "$BASE/current.tmp" && mv -T "$BASE/current.tmp" "$BASE/current"
say "current -> $id"

for port in $PORTS; do
  say "restarting qless@$port"
  systemctl restart "qless@$port.service"
  ready=""
  for _ in $(seq 1 60); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/api/v1/health/ready"; then ready=yes; break; fi
    sleep 1
  done
  if [ -z "$ready" ]; then
    say "qless@$port is not ready after 60 s: stopping here (journalctl -u qless@$port)"
    exit 1
  fi
  # nginx leaves a process out for 2 s (fail_timeout) after the refusals of its restart: the
  # next one goes only once this one is taken back, or two of three are out at once.
  sleep 3
done

# The last $KEEP releases stay (current and previous among them).
keep_current=$(readlink -f "$BASE/current")
keep_previous=$(readlink -f "$BASE/previous" 2>/dev/null || true)
ls -1d "$BASE"/releases/*/ | sort -r | tail -n +$((KEEP + 1)) | while read -r old_release; do
  old_release=${old_release%/}
  if [ "$old_release" != "$keep_current" ] && [ "$old_release" != "$keep_previous" ]; then
    say "removing $old_release"
    rm -rf "$old_release"
  fi
done
say "done: $id on ports $PORTS"

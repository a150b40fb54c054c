#!/usr/bin/env bash
# Runs a command with a throwaway Cloud Spanner emulator: the Google Cloud CLI's emulator_main
# (found from the SDK's root, which `gcloud info` prints) on a free loopback port, in memory;
# SPANNER_EMULATOR_HOST and the project and instance names the tests use exported; the emulator
# stopped when the command ends. The emulator runs one read-write transaction at a time: the
# tests queue their writes (test/support/spanner-database.ts).
set -euo pipefail

root=$(gcloud info --format='value(installation.sdk_root)' 2>/dev/null || true)
emulator="$root/bin/cloud_spanner_emulator/emulator_main"
if [ -z "$root" ] || [ ! -x "$emulator" ]; then
  echo "with-spanner: no Spanner emulator (gcloud's SDK root: '${root}'; install google-cloud-cli-spanner-emulator)" >&2
  exit 1
fi

# A free port, chosen by the kernel, on loopback only.
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log=$(mktemp /tmp/listkit-spanner.XXXXXX)
"$emulator" --host_port "127.0.0.1:$port" >"$log" 2>&1 &
pid=$!
stop() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$log"
}
trap stop EXIT

for _ in $(seq 1 300); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; exit 1; fi
  sleep 0.2
done

export SPANNER_EMULATOR_HOST="127.0.0.1:$port"
export LISTKIT_SPANNER_PROJECT="${LISTKIT_SPANNER_PROJECT:-listkit-test}"
export LISTKIT_SPANNER_INSTANCE="${LISTKIT_SPANNER_INSTANCE:-listkit}"
# @google-cloud/spanner's multiplexed sessions fail against the emulator; pooled sessions work.
export GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS=false
"$@"

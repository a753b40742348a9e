#!/bin/sh
# tests/integration/fake_rsh.sh: a remote shell for tests on one machine,
# given to lumpi as --rsh (and so to mpirun/mpiexec as their agent). Called
# as ssh would be: [options...] HOST COMMAND...; it runs COMMAND here, as
# "HOST" would: in its own UTS namespace named after HOST (so ranks on
# different "hosts" see different host names: :ranks, split_type "shared"),
# with LUMPI_ADDRESS=HOST when HOST is an address (127.0.0.2 ...), so the
# ranks bind their data sockets there. Options before HOST (-x, -o ...) are
# skipped as ssh would take them.
while [ $# -gt 0 ]; do
  case "$1" in
    -o|-p|-l|-i) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host="$1"
shift
case "$host" in
  [0-9]*.[0-9]*.[0-9]*.[0-9]*) LUMPI_ADDRESS="$host"; export LUMPI_ADDRESS ;;
esac
if unshare --uts true 2>/dev/null; then
  exec unshare --uts sh -c 'hostname "$0" && exec sh -c "$1"' "host-$host" "$*"
fi
exec sh -c "$*"

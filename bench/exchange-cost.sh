#!/bin/bash
# Instructions of the MPI runtime's message functions per rank, summed over
# the ranks (valgrind callgrind): examples/hpc/jacobi-2d.c at N x N with
# STEPS steps on P ranks. The runtime's functions are compiled apart
# (-fno-inline) so that each is counted on its own.
#
#   bash bench/exchange-cost.sh [WEFT] [P] [N] [STEPS]   (defaults: build/bin/weft 16 400 4)
#
# Needs mpicc, mpirun and valgrind. Writes into a fresh temporary folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
weft=$(realpath "${1:-$root/build/bin/weft}")
P=${2:-16}
N=${3:-400}
STEPS=${4:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
sed -e "s/^#define N .*/#define N $N/" -e "s/^#define TSTEPS .*/#define TSTEPS $STEPS/" \
  "$root/examples/hpc/jacobi-2d.c" > k.c
"$weft" compile --target=mpi k.c -o k.mpi.c
mpicc -O2 -g -fno-inline k.mpi.c -o k -lm
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np "$P" valgrind --tool=callgrind \
  --callgrind-out-file=cg.%p ./k > /dev/null 2> valgrind.err
echo "jacobi-2d N=$N steps=$STEPS ranks=$P: instructions, inclusive, summed over the ranks"
for fn in weft_jacobi_2d_scop0_distributed weft_rt_walk_runs \
  weft_rt_messages_share weft_rt_wait_all; do
  total=0
  for f in cg.*; do
    v=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
      grep -E "k.mpi.c:$fn( |\.)" | head -1 | awk '{gsub(",", "", $1); print $1}')
    total=$((total + ${v:-0}))
  done
  printf '%-36s %d\n' "$fn" "$total"
done

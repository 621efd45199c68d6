# Shared by bench/generated-c.sh, polybench-perf.sh, cpu-predict.sh and
# compare-weft.sh (sourced):
# how weft's output is measured against its input (size, vectorisation).

# Lines of the scop regions of a C file.
region_lines() {
  awk '/^[ \t]*#pragma[ \t]+scop/{r=1; next} /^[ \t]*#pragma[ \t]+endscop/{r=0} r{n++} END{print n+0}' "$1"
}
# Lines of weft's region function definitions (weft_<function>_scop<N>...).
function_lines() {
  awk '/^static .*weft_[A-Za-z0-9_]*_scop[0-9]+[A-Za-z_]*\(/{f=1} f{n++} f&&/^}/{f=0} END{print n+0}' "$1"
}
# The line ranges "first last" of the distributed forms in a C file.
distributed_ranges() {
  awk '/^static .*weft_[A-Za-z0-9_]*_scop[0-9]+_distributed\(/{f=1; s=NR} f&&/^}/{print s, NR; f=0}' "$1"
}
# The C compiler (and MPI wrapper environment) of a configuration.
mpicc_for() { # mpicc_for COMPILER ARGS...: mpicc with COMPILER underneath
  local cc=$1
  shift
  OMPI_CC=$cc MPICH_CC=$cc $MPICC "$@"
}
# Vectorisation remarks of COMPILER on a file, one "line" per vectorised loop.
vec_flags() {
  case $1 in
    clang*) echo "-Rpass=loop-vectorize" ;;
    *) echo "-fopt-info-vec-optimized" ;;
  esac
}
# Each loop counts once: gcc also reports the vectorised epilogue of a loop
# (a second "loop vectorized" remark at the same line, with narrower
# vectors), and whether it makes one depends on what it knows of the trip
# count, not on whether the loop vectorises.
vec_lines() { # vec_lines LOG FILE: lines of FILE with a vectorised loop
  grep -E "^([^:]*/)?$(basename "$2"):[0-9]+:[0-9:]* (optimized: loop vectorized|remark: vectorized loop)" "$1" |
    sed 's/^[^:]*:\([0-9]*\):.*/\1/' | sort -un || true
}
# "outside inside": loops vectorised outside / inside the given line ranges,
# after line FROM (the runtime header's end).
split_count() { # split_count LINES RANGES FROM
  awk -v rf="$2" -v from="$3" 'BEGIN{while((getline l < rf) > 0){split(l,a," "); lo[++k]=a[1]; hi[k]=a[2]}}
    $1 > from {in_=0; for(i=1;i<=k;i++) if($1>=lo[i] && $1<=hi[i]) in_=1; if(in_) d++; else o++}
    END{print o+0, d+0}' "$1"
}
# weft's outputs DIR/seq.c and DIR/mpi.c without their #line directives
# (DIR/seq.nl.c, DIR/mpi.nl.c), so that compilers name the lines of the
# files themselves, and the line ranges of mpi.c's distributed forms
# (DIR/dist.ranges). Prints the line where mpi.c's runtime header ends (the
# output's first #line: its loops count for neither side).
prepare_vectorised() { # prepare_vectorised DIR
  sed '/^#line /d' "$1/seq.c" >"$1/seq.nl.c"
  sed '/^#line /d' "$1/mpi.c" >"$1/mpi.nl.c"
  distributed_ranges "$1/mpi.nl.c" >"$1/dist.ranges"
  awk '/^#line /{print NR - 1; exit}' "$1/mpi.c"
}
# "vIn vSeq vMpi1 vDist": loops COMPILER vectorises in SRC, in DIR/seq.nl.c,
# and in DIR/mpi.nl.c outside and inside its distributed forms, each
# compiled with ARGS (logs DIR/v{in,seq,mpi}.TAG.log). Fails if a compile
# does. HDR_END is what prepare_vectorised printed.
vectorised_loops() { # vectorised_loops DIR TAG HDR_END COMPILER SRC ARGS...
  local d=$1 tag=$2 hdr=${3:-0} cc=$4 src=$5 vf
  shift 5
  vf=$(vec_flags "$cc")
  "$cc" "$@" "$vf" -c "$src" -o /dev/null 2>"$d/vin.$tag.log" &&
    "$cc" "$@" "$vf" -c "$d/seq.nl.c" -o /dev/null 2>"$d/vseq.$tag.log" &&
    mpicc_for "$cc" "$@" "$vf" -c "$d/mpi.nl.c" -o /dev/null 2>"$d/vmpi.$tag.log" || return 1
  vec_lines "$d/vmpi.$tag.log" "$d/mpi.nl.c" >"$d/vmpi.$tag.lines"
  echo "$(vec_lines "$d/vin.$tag.log" "$src" | wc -l)" \
    "$(vec_lines "$d/vseq.$tag.log" "$d/seq.nl.c" | wc -l)" \
    "$(split_count "$d/vmpi.$tag.lines" "$d/dist.ranges" "$hdr")"
}
# Instructions valgrind counts for a program run.
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I[ ]+refs:/{gsub(",","",$NF); print $NF}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", (b > 0 ? a / b : 0)}'; }
# PolyBench's sizes of a kernel's header for a dataset, as weft's --size
# value ("ni=1000,nj=1100"; empty where the header has none).
polybench_sizes() { # polybench_sizes ROOT HEADER DATASET
  python3 "$1/scripts/gpu-check-hpc.py" sizes "$2" "$3" |
    tr ' ' '\n' | sed -n 's/^\([A-Z0-9_]*\):\([0-9]*\)$/\L\1\E=\2/p' | paste -sd, -
}
# weft compile --target=mpi with a kernel's sizes (compile_sized WEFT SIZES
# OUT REPORT ARGS...), dropping each size the source does not use by that
# name (weft says which) until it compiles; prints the sizes it used.
compile_sized() {
  local weft=$1 sizes=$2 out=$3 report=$4 name
  shift 4
  while ! "$weft" compile --target=mpi ${sizes:+"--size=$sizes"} "$@" -o "$out" 2>"$report"; do
    name=$(sed -n "s/.* uses a size named '\(.*\)'$/\1/p" "$report")
    if [ -z "$name" ] || [ -z "$sizes" ]; then
      cat "$report" >&2
      return 1
    fi
    sizes=$(tr , '\n' <<<"$sizes" | grep -v "^$name=" | paste -sd, -)
  done
  echo "$sizes"
}
# The smaller of two numbers ("" is none).
min_of() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }

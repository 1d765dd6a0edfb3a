# Sourced by run.sh, metrics.sh and write.sh: the options they share and the steps each takes before
# its runs. The caller sets here (this directory) and root (the repository), and the defaults of the
# variables below.

# Reads one option the benchmarks share (--conns, --rounds, --duration, --warmup, --results, --no-build,
# --help) into the caller's variable and sets shift_by to the words it took; returns 1 for any other
# option, which the caller then reports or reads itself.
shared_option() {
  case "$1" in
    --conns) conns="$2"; shift_by=2 ;;
    --rounds) rounds="$2"; shift_by=2 ;;
    --duration) duration="$2"; shift_by=2 ;;
    --warmup) warmup="$2"; shift_by=2 ;;
    --results) results="$2"; shift_by=2 ;;
    --no-build) build=false; shift_by=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) return 1 ;;
  esac
}

# Fails naming the first of the given tools that is not on the PATH.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$tool is needed on the PATH" >&2; exit 1; }
  done
}

# Builds the library (installed, so that the WAR takes it) and the benchmark WAR, unless --no-build.
build_bench() {
  if $build; then
    echo "Building the library and the benchmark WAR..."
    (cd "$root" && mvn -B -q install -DskipTests -DskipITs) && mvn -B -q -f "$here/pom.xml" package
  fi
}

# Creates $results and starts $raw, the CSV that run_wrk (wrk.sh) appends to.
start_raw() {
  mkdir -p "$results"
  raw="$results/raw.csv"
  echo "store,scenario,connections,round,requests_per_s,p50_ms,p99_ms,bad_answers,socket_errors" >"$raw"
}

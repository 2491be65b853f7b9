# bench/paths.sh: where the benchmark scripts find things, sourced by each of them:
# ROOT (the repository), S (bench/), B (the build directory, B=DIR or build, made absolute)
# and W ($B/bench, their scratch directory).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$ROOT/bench
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
W=$B/bench

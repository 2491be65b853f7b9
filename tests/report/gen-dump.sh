#!/bin/sh
# gen-dump.sh FUNCTIONS NODES [THREADS]: writes (to stdout) a synthetic callprof dump with
# FUNCTIONS functions and NODES calling-context tree nodes per thread, for scale tests and
# benchmarks: a random tree (fixed seed) in which each function calls one of six others,
# with per-function totals and edges derived from the tree, so the figures agree.  Example, the 10,000-function bench:
#   sh tests/report/gen-dump.sh 10000 1000000 > /tmp/big.json
#   time build/callprof report -o /tmp/big-report /tmp/big.json
set -eu
exec awk -v F="${1:?functions}" -v N="${2:?nodes}" -v T="${3:-1}" '
function name(i) {
	# C and C++ flavoured names, some with characters that need escaping.
	if (i % 7 == 3) return sprintf("ns%.0f::Widget<std::vector<int>>::update_%.0f(int const&)", i % 13, i)
	if (i % 11 == 5) return sprintf("operator<<(std::ostream&, Rec%.0f const&)", i)
	return sprintf("fn_%.0f_%s", i, substr("parse lexer alloc hash emit solve", (i % 6) * 0 + 1, 5))
}
BEGIN {
	srand(42)
	printf "{\"format\":\"callprof\",\"version\":1,\"program\":{\"path\":\"/bench/synthetic\",\"argv\":[\"synthetic\",\"%.0f\",\"%.0f\"],\"pid\":1000},\n", F, N
	printf "\"start_time\":\"2024-01-01T00:00:00Z\",\"clock\":{\"source\":\"tsc\",\"ticks_per_second\":3000000000},\n"
	printf "\"calibration\":{\"per_call_ns\":8.0,\"o_in_ns\":3.0,\"o_out_ns\":5.0,\"compensated\":true},\"wall_ns\":%.0f,\n", N * 2000
	printf "\"modules\":[{\"id\":0,\"path\":\"/bench/synthetic\",\"build_id\":null}],\n\"functions\":[\n"
	for (i = 0; i < F; i++)
		printf "%s{\"id\":%.0f,\"name\":\"%s\",\"module\":0,\"address\":\"0x%x\",\"file\":\"src/f%.0f.c\",\"line\":%.0f}\n", \
			i ? "," : "", i, name(i), 4096 + 64 * i, i % 97, 1 + i % 500
	printf "],\n\"threads\":[\n"
	for (t = 0; t < T; t++) {
		delete par; delete fn; delete calls; delete self; delete incl
		delete fcalls; delete fself; delete fincl; delete ecalls; delete eincl; delete eself
		for (i = 0; i < N; i++) {
			# Parents drawn from the nodes so far, favouring recent ones: deep and bushy.
			par[i] = i == 0 ? -1 : (rand() < 0.5 ? i - 1 - int(rand() * (i < 8 ? i : 8)) : int(rand() * i))
			# Each function calls a few others, as real code does: edges stay near 6 per function.
			fn[i] = i == 0 ? 0 : 1 + (fn[par[i]] * 7919 + 1 + int(rand() * 6) * 104729) % (F - 1)
			calls[i] = 1 + int(rand() * rand() * 1000)
			self[i] = calls[i] * (20 + int(rand() * 400))
			incl[i] = self[i]
		}
		for (i = N - 1; i > 0; i--) incl[par[i]] += incl[i]
		for (i = 0; i < N; i++) {
			f = fn[i]; fcalls[f] += calls[i]; fself[f] += self[i]; fincl[f] += incl[i]
			k = (i ? fn[par[i]] : "null") SUBSEP f
			ecalls[k] += calls[i]; eincl[k] += incl[i]; eself[k] += self[i]
		}
		printf "%s{\"tid\":%.0f,\"name\":\"%s\",\"wall_ns\":%.0f,\"functions\":[\n", t ? "," : "", 1000 + t, t ? "worker" : "main", incl[0] + 1000
		sep = ""
		for (f = 0; f < F; f++) if (f in fcalls) {
			printf "%s{\"fn\":%.0f,\"calls\":%.0f,\"inclusive_ns\":%.0f,\"self_ns\":%.0f,\"raw_inclusive_ns\":%.0f,\"raw_self_ns\":%.0f,\"min_ns\":%.0f,\"max_ns\":%.0f}\n", \
				sep, f, fcalls[f], fincl[f], fself[f], fincl[f] + 8 * fcalls[f], fself[f] + 3 * fcalls[f], 20, fincl[f]
			sep = ","
		}
		printf "],\"edges\":[\n"
		sep = ""
		for (k in ecalls) {
			split(k, kk, SUBSEP)
			printf "%s{\"caller\":%s,\"callee\":%.0f,\"calls\":%.0f,\"inclusive_ns\":%.0f,\"self_ns\":%.0f}\n", sep, kk[1], kk[2], ecalls[k], eincl[k], eself[k]
			sep = ","
		}
		printf "],\"tree\":{\"columns\":[\"id\",\"parent\",\"fn\",\"calls\",\"inclusive_ns\",\"self_ns\",\"raw_inclusive_ns\",\"raw_self_ns\"],\"rows\":[\n"
		for (i = 0; i < N; i++)
			printf "%s[%.0f,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f]\n", i ? "," : "", i, i ? par[i] : "null", fn[i], calls[i], incl[i], self[i], incl[i] + 8 * calls[i], self[i] + 3 * calls[i]
		printf "]}}\n"
	}
	printf "]}\n"
}'

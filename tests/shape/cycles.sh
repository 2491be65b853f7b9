#!/bin/sh
# tests/shape/cycles.sh OBJECT...: fails when the objects depend on each other in a circle.
# Object A depends on object B when A uses (leaves undefined) a global symbol B defines,
# whoever wrote the reference: a call the compiler generates, such as the
# __cyg_profile_func_enter of an instrumented file, is an edge like any other.  Symbols no
# object here defines (libc's, say) are no edge.  Prints the objects of each cycle, one
# shortest cycle through them, and every edge among them with the symbols it stands for;
# exits 1 if there is a cycle, 0 if the graph is acyclic, 2 on bad usage.
set -eu
[ $# -gt 0 ] || { echo "usage: cycles.sh OBJECT..." >&2; exit 2; }
NM=${NM:-nm}

# One line per symbol: "def OBJECT SYMBOL" or "use OBJECT SYMBOL".  Weak undefined
# references (w, v) are uses: they bind to a definition when there is one.
for o in "$@"; do
	"$NM" -P "$o" >/dev/null || { echo "cycles.sh: cannot read the symbols of '$o'" >&2; exit 2; }
done
for o in "$@"; do
	name=$(basename "$o")
	"$NM" -P -g --defined-only "$o" | awk -v o="$name" '{ print "def", o, $1 }'
	"$NM" -P -u "$o" | awk -v o="$name" '{ print "use", o, $1 }'
done | LC_ALL=C sort -u | awk '
$1 == "def" { if (!($2 in id)) { id[$2] = ++n; obj[n] = $2 } definer[$3] = definer[$3] " " $2; next }
$1 == "use" { if (!($2 in id)) { id[$2] = ++n; obj[n] = $2 } use_obj[++nuse] = $2; use_sym[nuse] = $3 }
END {
	# Edges a -> b, each with the symbols it stands for.
	for (u = 1; u <= nuse; u++) {
		if (!(use_sym[u] in definer))
			continue
		k = split(definer[use_sym[u]], defs, " ")
		for (j = 1; j <= k; j++) {
			a = id[use_obj[u]]; b = id[defs[j]]
			if (a == b)
				continue
			if (!((a, b) in edge))
				edge[a, b] = use_sym[u]
			else
				edge[a, b] = edge[a, b] " " use_sym[u]
		}
	}
	# Reachability (Warshall): the objects are few.
	for (e in edge) { split(e, ab, SUBSEP); reach[ab[1], ab[2]] = 1 }
	for (k = 1; k <= n; k++)
		for (i = 1; i <= n; i++)
			if ((i, k) in reach)
				for (j = 1; j <= n; j++)
					if ((k, j) in reach)
						reach[i, j] = 1
	cycles = 0
	for (i = 1; i <= n; i++) {
		if (done[i] || !((i, i) in reach))
			continue
		# The strongly connected component of i: what reaches i and i reaches.
		members = ""; m = 0
		for (j = 1; j <= n; j++)
			if (j == i || ((i, j) in reach && (j, i) in reach)) {
				done[j] = 1; in_scc[j] = i; member[++m] = j; members = members " " obj[j]
			}
		cycles++
		printf "cycle among %d objects:%s\n", m, members
		# A shortest cycle through i: breadth first inside the component.
		delete prev; delete seen
		q[1] = i; head = 1; tail = 1; seen[i] = 1; last = 0
		while (head <= tail && !last) {
			x = q[head++]
			for (y = 1; y <= n && !last; y++) {
				if (!((x, y) in edge) || in_scc[y] != i)
					continue
				if (y == i) { last = x; break }
				if (!(y in seen)) { seen[y] = 1; prev[y] = x; q[++tail] = y }
			}
		}
		path = obj[i]
		for (x = last; x != i; x = prev[x])
			path = obj[x] " -> " path
		printf "  shortest: %s -> %s\n", obj[i], path
		for (a = 1; a <= m; a++)
			for (b = 1; b <= m; b++)
				if ((member[a], member[b]) in edge)
					printf "  %s -> %s: %s\n", obj[member[a]], obj[member[b]], edge[member[a], member[b]]
	}
	if (cycles)
		exit 1
	printf "no cycle among %d objects\n", n
}'

# reach.awk: the functions a probe can reach, from `objdump -d` of the runtime.
#   objdump -d --no-show-raw-insn libcallprof.so | awk -f reach.awk -v roots="f g" -v banned="re"
# Follows every direct call and jump (a tail call is a jump) from the roots and
# prints each reachable function whose name matches the regular expression
# `banned` (PLT entries are named without "@plt"), with the path to it.
/^[0-9a-f]+ <[^>]+>:$/ {
	fn = $2
	gsub(/[<>:]/, "", fn)
	next
}
fn != "" && /<[^>]+>/ {
	t = $0
	sub(/^[^<]*</, "", t)
	sub(/>.*$/, "", t)
	sub(/\+0x[0-9a-f]+$/, "", t)
	sub(/@plt$/, "", t)
	if (t != fn && !((fn, t) in edge)) {
		edge[fn, t] = 1
		out[fn] = out[fn] " " t
	}
}
END {
	n = split(roots, queue, " ")
	for (i = 1; i <= n; i++)
		from[queue[i]] = ""
	for (i = 1; i <= n; i++) {
		f = queue[i]
		m = split(out[f], next_, " ")
		for (j = 1; j <= m; j++) {
			g = next_[j]
			if (g in from)
				continue
			from[g] = f
			queue[++n] = g
		}
	}
	bad = 0
	for (g in from) {
		if (g !~ banned)
			continue
		path = g
		for (f = from[g]; f != ""; f = from[f])
			path = f " -> " path
		print path
		bad++
	}
	exit bad > 0
}

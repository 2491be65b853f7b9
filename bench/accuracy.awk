# accuracy.awk: one accuracy run's dump (as dumpq prints it) -> "kind run phase value" lines
# for tables.awk: the calibration (o_in, o_out); each phase's raw and compensated inclusive
# time; the calls made inside each phase (desc); and, per call of each phase's leaf, the
# leaf's raw and compensated self time and its caller's (leafraw, leafcomp, callerraw,
# callercomp), which show o_in and o_out separately.  Run with -F'\t' -v r=RUN.
$1 == "calib" { print "o_in\t" r "\t-\t" $2; print "o_out\t" r "\t-\t" $3 }
$1 == "fn" && $2 ~ /^phase_/ { print "raw\t" r "\t" $2 "\t" $6; print "comp\t" r "\t" $2 "\t" $4 }
$1 == "fn" { calls[$2] = $3; self[$2] = $5; rawself[$2] = $7 }

function split_self(phase, leaf, caller) {
	if (calls[leaf] <= 0)
		return
	print "leafraw\t" r "\t" phase "\t" rawself[leaf] / calls[leaf]
	print "leafcomp\t" r "\t" phase "\t" self[leaf] / calls[leaf]
	print "callerraw\t" r "\t" phase "\t" rawself[caller] / calls[leaf]
	print "callercomp\t" r "\t" phase "\t" self[caller] / calls[leaf]
}

END {
	print "desc\t" r "\tphase_tiny\t" calls["tiny"]
	print "desc\t" r "\tphase_medium\t" calls["medium"]
	print "desc\t" r "\tphase_heavy\t" calls["heavy"]
	print "desc\t" r "\tphase_nested\t" calls["nest_mid"] + calls["nest_inner"]
	print "desc\t" r "\tphase_recursion\t" calls["rec_fib"]
	split_self("phase_tiny", "tiny", "phase_tiny")
	split_self("phase_medium", "medium", "phase_medium")
	split_self("phase_heavy", "heavy", "phase_heavy")
	split_self("phase_nested", "nest_inner", "nest_mid")
}

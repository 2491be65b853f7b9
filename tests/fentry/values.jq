.functions[] | select(.args) | .name as $n | .args as $a |
if $a.refused then "\($n): not captured: \($a.refused)"
else ($a.tuples[] | "\($n)(\(.values | join(", "))) x\(.calls)"),
     (($a.returned // [])[] | "\($n) returned \(.value) x\(.calls)")
end

# real_jq.jq: the jq workload of bench/real.sh, over the array real_gen.awk writes: sorts
# (sort_by and group_by, so jq's sort_cmp and jv_cmp are hot), string handling, and
# arithmetic over every record.  Prints a few lines.
def words: .name | ascii_downcase | split(" ");
sort_by(.name, .score)
| map(select(.score % 3 != 0)
      | . + {key: (words | reverse | join("-")), total: ((.tags | map(length) | add) // 0),
             s: (.nested.a * .ratio + .nested.b), flag: (if .nested.on then "y" else "n" end)})
| sort_by(.total, .key)
| group_by(.total)
| map({total: .[0].total, n: length, best: (max_by(.s) | .key), ids: (map(.id) | sort | .[:3]),
       letters: (map(.key | explode | .[0]) | unique | implode)})
| (.[] | "\(.total) \(.n) \(.best) \(.ids | tostring) \(.letters | length)"),
  (map(.n) | add | tostring)

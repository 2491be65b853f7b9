# real_gen.awk: the generated inputs of the real programs' workloads (bench/real.sh).
#   awk -v what=json -v n=N -f real_gen.awk > in.json   N records for jq: one JSON array
#   awk -v what=sql  -v n=N -f real_gen.awk > in.sql    an SQL script for the sqlite3 shell
#   awk -v what=text -v n=N -f real_gen.awk > in.txt    N lines of word-like text for zstd
# Deterministic whatever the awk: the pseudo-random numbers are Park and Miller's minimal
# standard generator (products stay below 2^53, so doubles compute it exactly).

function rnd(m) {
	seed = (seed * 16807) % 2147483647
	return seed % m
}

# A word of 3 to 10 letters, from an alphabet skewed towards a few letters (so text compresses).
function word(    len, s, i) {
	len = 3 + rnd(8)
	s = ""
	for (i = 0; i < len; i++)
		s = s substr("eeeettaaoinshrdlucmfwypvbgkqjxz", 1 + rnd(31), 1)
	return s
}

function json(    i, j, nt, tags) {
	print "["
	for (i = 0; i < n; i++) {
		nt = rnd(5)
		tags = ""
		for (j = 0; j < nt; j++)
			tags = tags (j ? "," : "") "\"" word() "\""
		printf "{\"id\":%d,\"name\":\"%s %s\",\"score\":%d,\"ratio\":%d.%02d,\"tags\":[%s],\"nested\":{\"a\":%d,\"b\":%d,\"on\":%s}}%s\n",
			i, word(), word(), rnd(1000), rnd(100), rnd(100), tags, rnd(50), rnd(50),
			rnd(2) ? "true" : "false", i + 1 < n ? "," : ""
	}
	print "]"
}

# Customers, products and orders: bulk inserts in transactions, indexes, joins, group by,
# an update and a delete, and queries whose results are printed (a few lines).
function sql(    i, nc, np) {
	nc = int(n / 10) + 1
	np = int(n / 50) + 1
	print "PRAGMA journal_mode = OFF;"
	print "CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, city TEXT, since INTEGER);"
	print "CREATE TABLE product (id INTEGER PRIMARY KEY, label TEXT, price REAL, kind INTEGER);"
	print "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER, qty INTEGER, day INTEGER, note TEXT);"
	print "BEGIN;"
	for (i = 1; i <= nc; i++)
		printf "INSERT INTO customer VALUES (%d, '%s %s', '%s', %d);\n", i, word(), word(), word(), 2000 + rnd(25)
	for (i = 1; i <= np; i++)
		printf "INSERT INTO product VALUES (%d, '%s', %d.%02d, %d);\n", i, word(), rnd(500), rnd(100), rnd(12)
	for (i = 1; i <= n; i++)
		printf "INSERT INTO orders VALUES (%d, %d, %d, %d, %d, '%s');\n", i, 1 + rnd(nc), 1 + rnd(np),
			1 + rnd(9), rnd(3650), word()
	print "COMMIT;"
	print "CREATE INDEX orders_customer ON orders (customer);"
	print "CREATE INDEX orders_product ON orders (product, day);"
	print "CREATE INDEX customer_city ON customer (city);"
	print "SELECT c.city, count(*), sum(o.qty * p.price) AS total FROM orders o JOIN customer c ON c.id = o.customer"
	print "  JOIN product p ON p.id = o.product GROUP BY c.city ORDER BY total DESC LIMIT 5;"
	print "SELECT p.kind, o.day / 365 AS year, avg(o.qty), max(p.price) FROM orders o JOIN product p ON p.id = o.product"
	print "  GROUP BY p.kind, year ORDER BY p.kind, year LIMIT 5;"
	print "SELECT count(DISTINCT customer) FROM orders WHERE note LIKE 'e%' AND day BETWEEN 100 AND 2000;"
	print "SELECT c.name, sub.n FROM customer c JOIN (SELECT customer, count(*) AS n FROM orders GROUP BY customer) sub"
	print "  ON sub.customer = c.id ORDER BY sub.n DESC, c.name LIMIT 5;"
	print "UPDATE orders SET qty = qty + 1 WHERE product IN (SELECT id FROM product WHERE kind < 3);"
	print "DELETE FROM orders WHERE day % 7 = 0;"
	print "SELECT upper(substr(note, 1, 2)) AS k, count(*) FROM orders GROUP BY k ORDER BY 2 DESC, 1 LIMIT 5;"
	print "SELECT sum(qty), count(*) FROM orders;"
}

# Text from a vocabulary of 4,096 words, a few of them frequent (as in prose), so that it
# compresses about as well as prose does.
function text(    i, j, nw, s, v) {
	for (i = 0; i < 4096; i++)
		vocab[i] = word()
	for (i = 0; i < n; i++) {
		nw = 4 + rnd(12)
		s = ""
		for (j = 0; j < nw; j++) {
			v = rnd(4096)
			s = s (j ? " " : "") vocab[int(v * v * v / 16777216)]
		}
		print s (rnd(10) ? "." : ", " rnd(100000) ".")
	}
}

BEGIN {
	seed = 42
	if (what == "json")
		json()
	else if (what == "sql")
		sql()
	else if (what == "text")
		text()
	else {
		print "real_gen.awk: what=json, sql or text" > "/dev/stderr"
		exit 2
	}
}

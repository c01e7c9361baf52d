#!/usr/bin/env bash
# Runs PostgreSQL 15's pgbench over the expressions of expressions.txt, the malformed \set lines of
# syntax-errors.txt and the random expressions of fuzz-expressions.txt (written by fuzz-expressions.py), draws
# random sequences, histograms and per-thread choices from it, and writes what it printed into
# bench-script/src/test/resources/conformance/, where ExpressionConformanceTest (and its siblings) compare the
# Java implementation with it. The files written are committed, so the tests need no pgbench.
#
# Needs pgbench and psql of PostgreSQL 15 and a server to connect to (pgbench insists on a connection even for
# scripts without SQL); the server's version does not matter. Connection from the usual libpq variables, by default
# PGHOST=localhost PGUSER=bench PGPASSWORD=bench PGDATABASE=conformance. It creates and drops two tables there
# (expr_seq, expr_choice).
#
#   reports/bench-script/conformance/run-pgbench.sh            # all, about 40 seconds
#   PGBENCH=/path/to/pgbench PSQL=/path/to/psql reports/bench-script/conformance/run-pgbench.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${OUT:-$root/bench-script/src/test/resources/conformance}
PGBENCH=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
PSQL=${PSQL:-/usr/lib/postgresql/15/bin/psql}
export PGHOST=${PGHOST:-localhost} PGUSER=${PGUSER:-bench} PGDATABASE=${PGDATABASE:-conformance}
export PGPASSWORD=${PGPASSWORD:-bench}

EXPR_SEED=5432    # --random-seed of every expression
SEQ_SEED=2024     # --random-seed of the sequences and thread states
STAT_SEED=77      # --random-seed of the histograms (the Java side also draws with another seed)
SEQ_LENGTH=2000   # values per client and function
SEQ_KEPT=20       # values kept of a sequence stored as a digest
HIST_DRAWS=100000 # draws per histogram

version=$("$PGBENCH" --version)
case $version in
  *" 15."*) ;;
  *) echo "run-pgbench.sh: expected pgbench 15, got: $version" >&2; exit 1 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

sql() { "$PSQL" -qAtX -v ON_ERROR_STOP=1 "$@"; }

# --- expressions: one pgbench run each --------------------------------------------------------------------------
# The script is: the G: fields as "SELECT 'v' AS name \gset", then "\set r EXPR", "\set r debug(:r)" and
# "\shell echo sql: :r". Recorded: the debug() lines of EXPR itself, the value (or the error pgbench logged before
# aborting the client: an empty message when it logged none), and how pgbench writes the value into a command.
expressions() {
  local line n expr f kv g events result sql err aborted
  printf '# %s, each row: pgbench -n -t 1 -c 1 -j 1 --random-seed=%s (run-pgbench.sh)\n' "$version" "$EXPR_SEED"
  printf '# setup fields...\texpression\tdebug() inside it\tvalue or error\tvalue as written into SQL\n'
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    local -a fields=() args=()
    IFS=$'\t' read -r -a fields <<<"$line"
    n=${#fields[@]}
    expr=${fields[n - 1]}
    local script=""
    g=0
    for ((k = 0; k < n - 1; k++)); do
      f=${fields[k]}
      case $f in
        D:*) args+=(-D "${f#D:}") ;;
        G:*) kv=${f#G:}; script+="SELECT '${kv#*=}' AS ${kv%%=*} \\gset"$'\n'; g=$((g + 1)) ;;
        *) echo "run-pgbench.sh: unknown setup field '$f'" >&2; exit 1 ;;
      esac
    done
    script+="\\set r $expr"$'\n'"\\set r debug(:r)"$'\n''\shell echo "sql:" :r'$'\n'
    printf '%s' "$script" >"$work/e.sql"
    "$PGBENCH" -n -t 1 -c 1 -j 1 --random-seed="$EXPR_SEED" ${args[@]+"${args[@]}"} -f "$work/e.sql" \
      >"$work/out" 2>"$work/err" || true
    events=$(grep "^debug(script=0,command=$((g + 1))): " "$work/err" | sed 's/^debug([^)]*): //' |
      awk 'NR > 1 { printf " | " } { printf "%s", $0 }') || true
    aborted=$(grep -c 'aborted in command' "$work/err") || true
    if [[ $aborted -gt 0 ]]; then
      err=$(grep '^pgbench: error: ' "$work/err" | grep -v 'aborted in command' | grep -v 'Run was aborted' |
        head -n 1 | sed 's/^pgbench: error: //') || true
      result="error: $err"
      sql=""
    else
      result=$(grep "^debug(script=0,command=$((g + 2))): " "$work/err" | sed 's/^debug([^)]*): //') || true
      sql=$(grep '^sql: ' "$work/out" | sed 's/^sql: //') || true
      if [[ -z $result ]]; then
        echo "run-pgbench.sh: no result for: $line" >&2
        cat "$work/err" >&2
        exit 1
      fi
    fi
    printf '%s\t%s\t%s\t%s\n' "$line" "$events" "$result" "$sql"
  done <"$here/expressions.txt"
}

# --- syntax errors: pgbench's message and the column of its caret, counted from the expression's start ----------
syntax_errors() {
  local line ending expr msg caret
  printf '# %s, each row: a file "\\set x EXPR" + newline (or none: eof) (run-pgbench.sh)\n' "$version"
  printf '# ending\texpression\tmessage\tcaret column from the start of the expression\n'
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    ending=newline
    expr=$line
    if [[ $line == eof$'\t'* ]]; then
      ending=eof
      expr=${line#eof$'\t'}
      printf '\\set x %s' "$expr" >"$work/s.sql"
    else
      printf '\\set x %s\n' "$expr" >"$work/s.sql"
    fi
    if "$PGBENCH" -n -t 1 -f "$work/s.sql" >"$work/out" 2>"$work/err"; then
      echo "run-pgbench.sh: pgbench accepted: $line" >&2
      exit 1
    fi
    msg=$(grep -m 1 '^pgbench: error: ' "$work/err" | sed -e 's/^pgbench: error: [^:]*:1: //' -e 's/ in command "set"$//')
    caret=$(grep -m 1 ' error found here$' "$work/err" | awk '{ print index($0, "^") - 1 }') || true
    printf '%s\t%s\t%s\t%s\n' "$ending" "$expr" "$msg" "$(( ${caret:-6} - 7 ))"
  done <"$here/syntax-errors.txt"
}

# --- deep nesting: where pgbench's parser runs out of stack (10,000 states), "PREFIX" N times, ATOM, "SUFFIX" N times
DEEP=(
  "(|1|)|9997" "(|1|)|9998" "- |1||9997" "- |1||9998" "- |1||9999" "- |1||12000" "abs(|1|)|4998" "abs(|1|)|4999"
  "not |true||9997" "not |true||9998" "least(,|1|)|2499" "least(,|1|)|2500" "case when true then |1| end|2499"
  "case when true then |1| end|2500" "1 + (|2|)|4998" "1 + (|2|)|4999"
)
repeat() {
  local text="" i
  for ((i = 0; i < $2; i++)); do text+=$1; done
  printf '%s' "$text"
}
deep() {
  local entry prefix atom suffix n msg caret
  printf '# %s, each row: a file "\\set x EXPR" + newline (run-pgbench.sh)\n' "$version"
  printf '# prefix\tatom\tsuffix\trepeats\tmessage, or ok\tcaret column from the start of the expression\n'
  for entry in "${DEEP[@]}"; do
    IFS='|' read -r prefix atom suffix n <<<"$entry"
    printf '\\set x %s%s%s\n' "$(repeat "$prefix" "$n")" "$atom" "$(repeat "$suffix" "$n")" >"$work/d.sql"
    if "$PGBENCH" -n -t 1 -f "$work/d.sql" >"$work/out" 2>"$work/err"; then
      printf '%s\t%s\t%s\t%s\tok\t\n' "$prefix" "$atom" "$suffix" "$n"
    else
      msg=$(grep -m 1 '^pgbench: error: ' "$work/err" | sed -e 's/^pgbench: error: [^:]*:1: //' -e 's/ in command "set"$//')
      caret=$(grep -m 1 ' error found here$' "$work/err" | awk '{ print index($0, "^") - 1 }')
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$prefix" "$atom" "$suffix" "$n" "$msg" "$((caret - 7))"
    fi
  done
}

# --- fuzz: the random expressions of fuzz-expressions.txt, with -D x=3 -D y=2.5, whatever pgbench makes of them ---
fuzz() {
  local expr events outcome text column
  printf '# %s, each row: pgbench -n -t 1 -c 1 -j 1 --random-seed=%s -D x=3 -D y=2.5 (run-pgbench.sh)\n' \
    "$version" "$EXPR_SEED"
  printf '# expression\toutcome\tvalue, error or syntax error\tcaret column\tdebug() inside it\n'
  while IFS= read -r expr; do
    printf '\\set r %s\n\\set r debug(:r)\n' "$expr" >"$work/f.sql"
    "$PGBENCH" -n -t 1 -c 1 -j 1 --random-seed="$EXPR_SEED" -D x=3 -D y=2.5 -f "$work/f.sql" \
      >"$work/out" 2>"$work/err" || true
    events=$(grep '^debug(script=0,command=1): ' "$work/err" | sed 's/^debug([^)]*): //' |
      awk 'NR > 1 { printf " | " } { printf "%s", $0 }') || true
    column=""
    if grep -q ' error found here$' "$work/err"; then
      outcome="syntax error"
      text=$(grep -m 1 '^pgbench: error: ' "$work/err" |
        sed -e 's/^pgbench: error: [^:]*:1: //' -e 's/ in command "set"$//')
      column=$(($(grep -m 1 ' error found here$' "$work/err" | awk '{ print index($0, "^") - 1 }') - 7))
      events=""
    elif grep -q 'aborted in command' "$work/err"; then
      outcome=error
      text=$(grep '^pgbench: error: ' "$work/err" | grep -v 'aborted in command' | grep -v 'Run was aborted' |
        head -n 1 | sed 's/^pgbench: error: //') || true
    else
      outcome=value
      text=$(grep '^debug(script=0,command=2): ' "$work/err" | sed 's/^debug([^)]*): //')
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$expr" "$outcome" "$text" "$column" "$events"
  done <"$here/fuzz-expressions.txt"
}

# --- sequences: each client's values of a function over SEQ_LENGTH draws, read back from a table ----------------
FUNCTIONS=(
  "uniform|random(1, 1000000000)"
  "exponential|random_exponential(1, 1000, 2.5)"
  "gaussian|random_gaussian(1, 1000, 4)"
  "zipfian1.07|random_zipfian(1, 1000, 1.07)"
  "zipfian1.5|random_zipfian(1, 1000, 1.5)"
)
CONFIGS=("1 1" "4 1" "4 2" "3 2")

sequences() {
  local cfg clients threads entry tag fun i script values
  sql -c "DROP TABLE IF EXISTS expr_seq" -c "CREATE TABLE expr_seq (id bigserial, run text, client int, v bigint)"
  for cfg in "${CONFIGS[@]}"; do
    read -r clients threads <<<"$cfg"
    for entry in "${FUNCTIONS[@]}"; do
      tag="c${clients}j${threads}|${entry%%|*}"
      fun=${entry#*|}
      script=""
      values=""
      for i in 1 2 3 4 5 6 7 8 9 10; do
        script+="\\set v$i $fun"$'\n'
        values+="${values:+, }('$tag', :client_id, :v$i)"
      done
      script+="INSERT INTO expr_seq (run, client, v) VALUES $values"$'\n'
      printf '%s' "$script" >"$work/q.sql"
      "$PGBENCH" -n -t $((SEQ_LENGTH / 10)) -c "$clients" -j "$threads" --random-seed="$SEQ_SEED" \
        -f "$work/q.sql" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    done
  done
  # permute() without a seed (reads :default_seed) and with one, over 0..999, one client
  for entry in "permute-default|permute(:i, 1000)" "permute-seeded|permute(:i, 1000, 20240229)"; do
    tag="c1j1|${entry%%|*}"
    fun=${entry#*|}
    printf '\\set i :i + 1\n\\set v %s\nINSERT INTO expr_seq (run, client, v) VALUES ('"'%s'"', :client_id, :v)\n' \
      "$fun" "$tag" >"$work/q.sql"
    "$PGBENCH" -n -t 1000 -c 1 -j 1 --random-seed="$SEQ_SEED" -D i=-1 -f "$work/q.sql" >/dev/null 2>"$work/err" ||
      { cat "$work/err" >&2; exit 1; }
  done
  printf '# %s, pgbench -n -c C -j J --random-seed=%s (run-pgbench.sh)\n' "$version" "$SEQ_SEED"
  printf '# cCjJ|function\tclient\tcount\tsha256 of the values joined by commas\tvalues (all, or the first %s)\n' \
    "$SEQ_KEPT"
  sql -F $'\t' -c "SELECT run, client, string_agg(v::text, ',' ORDER BY id) FROM expr_seq
                   GROUP BY run, client ORDER BY run, client" |
    while IFS=$'\t' read -r tag client csv; do
      local count digest kept
      count=$(awk -F, '{ print NF }' <<<"$csv")
      digest=$(printf '%s' "$csv" | sha256sum | cut -d' ' -f1)
      kept=$csv
      # every value of c1j1 (client 0, whose state is the same in every configuration) and of client 3 of -c 4 -j 1;
      # a digest and a prefix of the others
      if ! [[ $tag == c1j1* || ($tag == c4j1* && $client == 3) ]]; then
        kept=$(cut -d, -f1-"$SEQ_KEPT" <<<"$csv")
      fi
      printf '%s\t%s\t%s\t%s\t%s\n' "$tag" "$client" "$count" "$digest" "$kept"
    done
  sql -c "DROP TABLE expr_seq"
}

# --- histograms: HIST_DRAWS values of each distribution, counted per value -----------------------------------------
histograms() {
  local entry name fun i script
  printf '# %s, pgbench -n -c 1 -j 1 --random-seed=%s, %s draws (run-pgbench.sh)\n' "$version" "$STAT_SEED" \
    "$HIST_DRAWS"
  printf '# function\texpression\tseed\tdraws\tcounts of 1..1000\n'
  for entry in "${FUNCTIONS[@]}"; do
    name=${entry%%|*}
    fun=${entry#*|}
    [[ $name == uniform ]] && fun="random(1, 1000)"
    script=""
    for i in 1 2 3 4 5 6 7 8 9 10; do
      script+="\\set v$i debug($fun)"$'\n'
    done
    printf '%s' "$script" >"$work/h.sql"
    "$PGBENCH" -n -t $((HIST_DRAWS / 10)) -c 1 -j 1 --random-seed="$STAT_SEED" -f "$work/h.sql" \
      >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t' "$name" "$fun" "$STAT_SEED" "$HIST_DRAWS"
    grep '^debug(' "$work/err" | awk '{ count[$NF]++ }
      END { for (v = 1; v <= 1000; v++) printf "%s%d", (v > 1 ? "," : ""), count[v] + 0; printf "\n" }'
  done
}

# --- thread states: weighted script choice and log sampling, one client per thread ------------------------------
thread_states() {
  local f client rest
  printf '# %s, pgbench -n -c 2 -j 2 -t 300 --random-seed=%s (run-pgbench.sh)\n' "$version" "$SEQ_SEED"
  printf '# what\tclient\tparameters\tsequence\n'
  sql -c "DROP TABLE IF EXISTS expr_choice" \
    -c "CREATE TABLE expr_choice (id bigserial, client int, script int)"
  for f in 0 1 2; do
    printf 'INSERT INTO expr_choice (client, script) VALUES (:client_id, %s)\n' "$f" >"$work/w$f.sql"
  done
  "$PGBENCH" -n -t 300 -c 2 -j 2 --random-seed="$SEQ_SEED" -f "$work/w0.sql@2" -f "$work/w1.sql@1" \
    -f "$work/w2.sql@5" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  sql -F $'\t' -c "SELECT 'choose', client, '2,1,5', string_agg(script::text, '' ORDER BY id) FROM expr_choice
                   GROUP BY client ORDER BY client"
  sql -c "DROP TABLE expr_choice"
  # --sampling-rate: which transactions each thread logs (pgbench_log.PID for thread 0, .PID.1 for thread 1)
  printf '\\set x 1\n' >"$work/t.sql"
  (cd "$work" && "$PGBENCH" -n -t 300 -c 2 -j 2 --random-seed="$SEQ_SEED" -l --sampling-rate=0.3 \
    --log-prefix=samplelog -f t.sql >/dev/null 2>"$work/err") || { cat "$work/err" >&2; exit 1; }
  cat "$work"/samplelog.* | sort -k1,1n -k2,2n | awk '
    { list[$1] = list[$1] (list[$1] == "" ? "" : ",") $2 }
    END { for (c = 0; c < 2; c++) printf "sample\t%d\t0.3\t%s\n", c, list[c] }'
}

expressions >"$out/expressions.tsv"
echo "expressions: $(grep -vc '^#' "$out/expressions.tsv") rows" >&2
syntax_errors >"$out/syntax-errors.tsv"
echo "syntax errors: $(grep -vc '^#' "$out/syntax-errors.tsv") rows" >&2
deep >"$out/deep-nesting.tsv"
echo "deep nesting: $(grep -vc '^#' "$out/deep-nesting.tsv") rows" >&2
fuzz >"$out/fuzz.tsv"
echo "fuzz: $(grep -vc '^#' "$out/fuzz.tsv") rows" >&2
sequences >"$out/sequences.tsv"
echo "sequences: $(grep -vc '^#' "$out/sequences.tsv") rows" >&2
histograms >"$out/histograms.tsv"
echo "histograms: $(grep -vc '^#' "$out/histograms.tsv") rows" >&2
thread_states >"$out/thread-states.tsv"
echo "thread states: $(grep -vc '^#' "$out/thread-states.tsv") rows" >&2

#!/usr/bin/env bash
# Runs PostgreSQL 15's pgbench on every script of bad-scripts/ and on the option cases of options.cases, and writes
# what pgbench said to bench-script/src/test/resources/conformance/, where ScriptParserConformanceTest and
# BuiltinScriptsTest compare the Java parser with it (so those tests pass where pgbench is absent):
#
#   bad-scripts.tsv   file, exit, kind, n, text: for every script, pgbench -n -t 1 -D x=5 -D y=7 -f FILE
#                     (-M extended for *-extended-*): its stderr lines (kind "stderr"); for a script it accepts,
#                     also the per-command report of -r (kind "command": what pgbench shows for each command, in
#                     order) and the SQL it sent as --debug logs it (kind "sent")
#   options.tsv       case, arguments, exit, kind, n, text: for every option case, its stderr lines and the report
#                     lines that name scripts, weights and commands (kinds "type", "script", "weight", "command")
#   show-script/NAME.txt   what pgbench --show-script=NAME prints (on stderr), byte for byte
#   builtin-list.txt       what pgbench -b list prints (on stderr)
#
# Texts are escaped: backslash, tab, carriage return and newline as \\ \t \r \n. pgbench runs in bad-scripts/ with
# relative file names, so its messages hold no paths (any absolute path of that directory is removed all the same).
#
# Needs a PostgreSQL server for pgbench to connect to (the run never gets that far for refused scripts, but accepted
# ones and built-ins run one transaction): PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE as libpq reads them
# (defaults here: localhost, bench, database pgb). The built-ins need the pgbench tables: created with pgbench -i -s 1
# when pgbench_branches is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
scripts="$here/bad-scripts"
out="$repo/bench-script/src/test/resources/conformance"
pgbench=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
export PGHOST=${PGHOST:-localhost} PGUSER=${PGUSER:-bench} PGDATABASE=${PGDATABASE:-pgb}
if [[ -z "${PGPASSWORD:-}" && ! -f "${PGPASSFILE:-$HOME/.pgpass}" ]]; then
    export PGPASSWORD=bench
fi

version=$("$pgbench" --version)
[[ "$version" == *"PostgreSQL) 15."* ]] || { echo "needs pgbench 15, found: $version" >&2; exit 1; }

mkdir -p "$out/show-script"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# escape < text: one escaped line of the whole input (newlines inside become \n; the final newline is dropped)
escape() {
    awk 'BEGIN { ORS = "" }
         { gsub(/\\/, "\\\\\\\\"); gsub(/\t/, "\\t"); gsub(/\r/, "\\r"); if (NR > 1) print "\\n"; print }'
}

# rows PREFIX KIND < lines: one row "PREFIX KIND n text" per line
rows() {
    local prefix=$1 kind=$2 n=0 line
    while IFS= read -r line || [[ -n "$line" ]]; do
        n=$((n + 1))
        printf '%s\t%s\t%d\t%s\n' "$prefix" "$kind" "$n" "$(printf '%s' "$line" | escape)"
    done
}

# report < stdout of a -r run: "KIND<TAB>escaped text" for each script name, weight and command display (a
# command's display may take several lines: the lines up to the next one that starts a record)
report() {
    awk -v OFS='\t' '
        function esc(s) { gsub(/\\/, "\\\\\\\\", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s); return s }
        function flush() { if (cmd != "") { print "command", cmd; cmd = "" } }
        /^transaction type: /         { flush(); inside = 0; print "type", esc(substr($0, 19)); next }
        /^SQL script [0-9]+: /        { flush(); inside = 0; sub(/^SQL script [0-9]+: /, ""); print "script", esc($0); next }
        /^ - weight: /                { flush(); inside = 0; split($0, w, " "); print "weight", w[3]; next }
        /statement latencies in milliseconds and failures:$/ { flush(); inside = 1; next }
        inside && /^ +-?[0-9]+\.[0-9][0-9][0-9] +[0-9]+  / {
            flush(); line = $0; sub(/^ +-?[0-9]+\.[0-9][0-9][0-9] +[0-9]+  /, "", line); cmd = esc(line); next }
        inside && cmd != ""           { cmd = cmd "\\n" esc($0); next }
        END { flush() }'
}

# sent < stderr of a --debug run: the escaped text of each "client 0 sending" entry, one a line
sent() {
    awk '
        function esc(s) { gsub(/\\/, "\\\\\\\\", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s); return s }
        function flush() { if (open) print text; open = 0 }
        /^pgbench: client 0 sending / { flush(); open = 1; text = esc(substr($0, 27)); next }
        /^pgbench: /                  { flush(); next }
        open                          { text = text "\\n" esc($0) }
        END { flush() }'
}

cd "$scripts"
if ! "$pgbench" -n -t 1 -S >/dev/null 2>&1; then
    "$pgbench" -i -s 1 -q >/dev/null 2>&1
fi

{
    printf 'file\texit\tkind\tn\ttext\n'
    for file in *.sql; do
        mode=()
        [[ "$file" == *-extended-* ]] && mode=(-M extended)
        set +e
        "$pgbench" -n -t 1 -D x=5 -D y=7 "${mode[@]}" -f "$file" >"$tmp/out" 2>"$tmp/err"
        status=$?
        set -e
        sed -e "s|$scripts/||g" "$tmp/err" | rows "$file"$'\t'"$status" stderr
        if [[ "$file" == ok-* ]]; then
            "$pgbench" -n -t 1 -D x=5 -D y=7 "${mode[@]}" -r --debug -f "$file" >"$tmp/out" 2>"$tmp/err" || true
            report <"$tmp/out" | P="$file"$'\t'"$status" awk -F'\t' '
                $1 == "command" { printf "%s\tcommand\t%d\t%s\n", ENVIRON["P"], ++n, $2 }'
            sent <"$tmp/err" | P="$file"$'\t'"$status" awk '{ printf "%s\tsent\t%d\t%s\n", ENVIRON["P"], NR, $0 }'
        fi
    done
} >"$out/bad-scripts.tsv"

{
    printf 'case\targuments\texit\tkind\tn\ttext\n'
    number=0
    while IFS= read -r line; do
        [[ -z "$line" || "$line" == \#* ]] && continue
        number=$((number + 1))
        IFS=$'\t' read -r -a args <<<"$line"
        arguments=$(printf '%s' "$line" | escape)
        set +e
        "$pgbench" -n -t 1 "${args[@]}" >"$tmp/out" 2>"$tmp/err"
        status=$?
        set -e
        sed -e "s|$scripts/||g" "$tmp/err" | rows "$number"$'\t'"$arguments"$'\t'"$status" stderr
        report <"$tmp/out" | P="$number"$'\t'"$arguments"$'\t'"$status" awk -F'\t' '
            { printf "%s\t%s\t%d\t%s\n", ENVIRON["P"], $1, ++n[$1], $2 }'
    done <"$here/options.cases"
} >"$out/options.tsv"

for name in tpcb-like simple-update select-only; do
    "$pgbench" --show-script="$name" 2>"$out/show-script/$name.txt"
done
"$pgbench" -b list 2>"$out/builtin-list.txt"

echo "wrote $out/bad-scripts.tsv ($(($(wc -l <"$out/bad-scripts.tsv") - 1)) rows), options.tsv, show-script/, builtin-list.txt"

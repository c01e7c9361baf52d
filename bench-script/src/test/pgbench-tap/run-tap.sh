#!/usr/bin/env bash
# Runs PostgreSQL 15's own pgbench TAP tests (t/*.pl, vendored unchanged, see
# README.md) against the `pgbench` found in PGBENCH_DIR, and reports per
# pgbench call ("case") whether it behaved as the suite expects.
#
# Usage: run-tap.sh PGBENCH_DIR OUT_DIR
#
#   PGBENCH_DIR  directory holding the `pgbench` to test; it is put first on
#                the suite's PATH, before PostgreSQL 15's server binaries.
#   OUT_DIR      created if missing; receives
#                  001.tap, 002.tap        raw TAP (the test scripts' stdout)
#                  001.stderr, 002.stderr  failure diagnostics (got/expected)
#                  cases.tsv               one line per pgbench call:
#                                          file seq case matched checks failed
#                  logs/                   the suite's logs (regress_log_*:
#                                          every command run with its TAP
#                                          lines; the server's log)
#                and prints "N of M cases match" on stdout.
#
# Exit status: 0 when every case matches, 1 when some do not, 2 on a usage or
# environment error.
#
# Environment (all optional):
#   PG15_BINDIR            PostgreSQL 15 binaries (initdb, pg_ctl, postgres,
#                          psql, pg_config); default /usr/lib/postgresql/15/bin
#   PG15_REGRESS           pg_regress, which PostgreSQL::Test::Cluster runs as
#                          "$PG_REGRESS --config-auth DATADIR" (a no-op outside
#                          Windows); default: Debian's, from postgresql-client-15
#   PGBENCH_TAP_USER       unprivileged user that runs the suite when this
#                          script runs as root; default postgres
#   PGBENCH_TAP_TIMEOUT    seconds allowed to each test file; default 1200
#   PGBENCH_TAP_PASSENV    space separated names of variables to pass to the
#                          suite (and so to the tested pgbench); JAVA_HOME is
#                          always passed when set.  Everything else, PG*
#                          variables included, is dropped: the tested pgbench
#                          gets only what the suite gives it.
#   PGBENCH_TAP_KEEP=1     keep the work directory (printed on stderr)
#
# Needs perl with IPC::Run (Debian: libipc-run-perl) and PostgreSQL 15's
# server binaries (Debian: postgresql-15).  PostgreSQL refuses to run as root,
# so as root the suite runs as PGBENCH_TAP_USER in a temporary directory that
# user owns; if that user cannot run PGBENCH_DIR/pgbench in place, PGBENCH_DIR
# is copied there (so a wrapper must then find what it needs relative to
# itself or in world-readable places).
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() {
	echo "run-tap.sh: $*" >&2
	exit 2
}

[ $# -eq 2 ] || usage
[ -n "$1" ] && [ -n "$2" ] || usage

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PGBENCH_DIR=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
PG15_BINDIR=${PG15_BINDIR:-/usr/lib/postgresql/15/bin}
PG15_REGRESS=${PG15_REGRESS:-/usr/lib/postgresql/15/lib/pgxs/src/test/regress/pg_regress}
TIMEOUT=${PGBENCH_TAP_TIMEOUT:-1200}
RUN_USER=${PGBENCH_TAP_USER:-postgres}

# ---- prerequisites ---------------------------------------------------------
[ -x "$PGBENCH_DIR/pgbench" ] || die "$PGBENCH_DIR/pgbench is missing or not executable"
for b in initdb pg_ctl postgres psql pg_config; do
	[ -x "$PG15_BINDIR/$b" ] || die "$PG15_BINDIR/$b is missing: install PostgreSQL 15's server (Debian: apt-get install postgresql-15) or set PG15_BINDIR"
done
[ -x "$PG15_REGRESS" ] || die "$PG15_REGRESS is missing: install postgresql-client-15 or set PG15_REGRESS"
"$PG15_BINDIR/pg_config" --version | grep -q '^PostgreSQL 15\.' ||
	die "$PG15_BINDIR is not PostgreSQL 15 ($("$PG15_BINDIR/pg_config" --version))"
command -v perl >/dev/null || die "perl is missing"
perl -MIPC::Run -e 1 2>/dev/null ||
	die "perl module IPC::Run is missing: apt-get install -y libipc-run-perl (or cpan IPC::Run)"
perl -MTest::More\ 0.98 -e 1 2>/dev/null || die "perl module Test::More >= 0.98 is missing (Debian: perl-modules)"
command -v timeout >/dev/null || die "timeout (coreutils) is missing"

# ---- work directory, user ----------------------------------------------------
WORK=$(mktemp -d /tmp/pgbench-tap.XXXXXX)
chmod 755 "$WORK"
AS_USER=()
if [ "$(id -u)" -eq 0 ]; then
	id "$RUN_USER" >/dev/null 2>&1 || die "user $RUN_USER does not exist (set PGBENCH_TAP_USER)"
	command -v runuser >/dev/null || die "runuser (util-linux) is missing"
	AS_USER=(runuser -u "$RUN_USER" --)
fi

cleanup() {
	# stop any server a killed test script left behind
	local pidfile
	for pidfile in $(find "$WORK" -name postmaster.pid 2>/dev/null); do
		"${AS_USER[@]}" "$PG15_BINDIR/pg_ctl" -D "$(dirname "$pidfile")" -m immediate -w stop >/dev/null 2>&1 || true
	done
	if [ "${PGBENCH_TAP_KEEP:-}" = 1 ]; then
		echo "run-tap.sh: work directory kept: $WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

mkdir -p "$WORK/src/t" "$WORK/src/perl" "$WORK/testdir" "$WORK/tmp"
cp "$HERE"/t/*.pl "$WORK/src/t/"
cp -R "$HERE"/perl/. "$WORK/src/perl/"

BENCH_BIN=$PGBENCH_DIR
if [ ${#AS_USER[@]} -gt 0 ]; then
	chown -R "$RUN_USER" "$WORK"
	if ! "${AS_USER[@]}" test -x "$PGBENCH_DIR/pgbench" -a -r "$PGBENCH_DIR/pgbench"; then
		# e.g. a wrapper under /root: copy the directory where the user can read it
		BENCH_BIN=$WORK/pgbench-bin
		cp -RL "$PGBENCH_DIR" "$BENCH_BIN"
		chown -R "$RUN_USER" "$BENCH_BIN"
		echo "run-tap.sh: $RUN_USER cannot run $PGBENCH_DIR/pgbench in place; testing a copy in $BENCH_BIN" >&2
	fi
fi

# the suite's environment: nothing of the caller's but what is named
SUITE_ENV=(
	"PATH=$BENCH_BIN:$PG15_BINDIR:/usr/local/bin:/usr/bin:/bin"
	"HOME=$WORK"
	"TESTDIR=$WORK/testdir"
	"PG_REGRESS=$PG15_REGRESS"
	"TMPDIR=$WORK/tmp"
	"LANG=C.UTF-8"
)
for v in JAVA_HOME ${PGBENCH_TAP_PASSENV:-}; do
	if [ -n "${!v+x}" ]; then SUITE_ENV+=("$v=${!v}"); fi
done

# what the tested pgbench says, as the suite's user and environment sees it
if ! version=$(cd "$WORK" && "${AS_USER[@]}" env -i "${SUITE_ENV[@]}" pgbench --version 2>&1); then
	echo "run-tap.sh: warning: 'pgbench --version' failed: $version" >&2
else
	echo "run-tap.sh: testing $version ($BENCH_BIN/pgbench)" >&2
fi

# ---- run the two test files --------------------------------------------------
: >"$OUT/cases.tsv.tmp"
printf 'file\tseq\tcase\tmatched\tchecks\tfailed\n' >"$OUT/cases.tsv.tmp"
mkdir -p "$OUT/logs"
for f in 001_pgbench_with_server 002_pgbench_no_server; do
	label=${f%%_*}
	start=$(date +%s)
	set +e
	(cd "$WORK/src" && "${AS_USER[@]}" env -i "${SUITE_ENV[@]}" \
		timeout -k 30 "$TIMEOUT" perl -I perl "t/$f.pl") \
		</dev/null >"$OUT/$label.tap" 2>"$OUT/$label.stderr"
	rc=$?
	set -e
	end=$(date +%s)
	stopped=""
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		stopped="timed out after ${TIMEOUT}s"
	fi
	cp "$WORK/testdir/tmp_check/log/"* "$OUT/logs/" 2>/dev/null || true
	if [ -z "$stopped" ] && ! grep -q '^1\.\.[0-9]' "$OUT/$label.tap"; then
		# the script died: its last words (e.g. "command exited with signal 9
		# at ...", which command_checks_all says when pgbench is killed by a
		# signal) are in its log
		why=$(grep -h -E '^Bail out!|^command exited with signal|^died|^Died| at [^ ]+\.p[lm] line [0-9]+\.$' \
			"$OUT/$label.tap" "$OUT/logs/regress_log_$f" 2>/dev/null | tail -n 1 || true)
		stopped="exit status $rc${why:+: $why}; see logs/regress_log_$f"
	fi
	echo "run-tap.sh: $f: exit status $rc, $((end - start)) s${stopped:+, stopped early: $stopped}" >&2
	perl "$HERE/tap-cases.pl" "$label" "$OUT/$label.tap" "$HERE/expected-cases.tsv" "$stopped" \
		>>"$OUT/cases.tsv.tmp"
done
mv "$OUT/cases.tsv.tmp" "$OUT/cases.tsv"

total=$(tail -n +2 "$OUT/cases.tsv" | wc -l)
matched=$(tail -n +2 "$OUT/cases.tsv" | awk -F'\t' '$4 == "yes"' | wc -l)
echo "$matched of $total cases match"
todo_only=$(tail -n +2 "$OUT/cases.tsv" | awk -F'\t' '$4 == "no" && $6 != "" {
	n = split($6, f, / \| /); t = 0
	for (i = 1; i <= n; i++) if (f[i] ~ /\[TODO:/) t++
	if (t == n) c++ } END { print c + 0 }')
if [ "$todo_only" -gt 0 ]; then
	echo "($todo_only of the cases that do not match failed only assertions the suite marks TODO, see cases.tsv)"
fi
[ "$matched" -eq "$total" ]  || exit 1

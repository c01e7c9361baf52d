#!/usr/bin/perl
# Groups the TAP output of PostgreSQL's pgbench tests into "cases", one per
# pgbench call, and writes one TSV line per case.
#
# Usage: tap-cases.pl FILE-LABEL TAP-FILE EXPECTED-CASES-TSV [STOPPED-REASON]
#
# How the suite names its assertions (PostgreSQL::Test::Utils::command_checks_all,
# which $node->pgbench() and 002's pgbench()/pgbench_scripts() call):
#   "NAME status (got X vs expected Y)"     always, first
#   "NAME stdout /RE/"                       one per stdout regex, next
#   "NAME stderr /RE/"                       one per stderr regex, last
# A case starts at a status assertion; the stdout/stderr assertions that follow
# it and start with exactly "NAME stdout /" or "NAME stderr /" are its own.
# Any other assertion (the suite's checks of the server log, of pgbench's
# --log files, of the rows a seeded run inserted) checks the effects of the
# pgbench call(s) just made: it is attributed to the preceding case, marked
# "after: ".  Test::More writes "#" in names as "\#" and continues a name
# holding a newline on "# " lines; both are undone here.
#
# EXPECTED-CASES-TSV (file, seq, name) lists the cases a complete run makes;
# "<N>" in a name stands for a number that changes from run to run.  Cases the
# run did not reach (the test script died or timed out) are written as not
# matched, so that M stays the same from run to run.
#
# Output columns: file, seq, case, matched (yes/no), checks (number of
# assertions judged), failed (failing assertion names, " | " separated, the
# case name left off; a failing assertion the suite marks TODO still makes the
# case not match, and is tagged "[TODO: reason]").
use strict;
use warnings;

my ($label, $tapfile, $expectedfile, $stopped) = @ARGV;
die "usage: $0 FILE-LABEL TAP-FILE EXPECTED-CASES-TSV [STOPPED-REASON]\n"
  unless defined $expectedfile;

my @expected;
open my $ex, '<', $expectedfile or die "cannot read $expectedfile: $!\n";
while (<$ex>)
{
	chomp;
	next if /^#/ || /^\s*$/;
	my ($f, $seq, $name) = split /\t/, $_, 3;
	push @expected, $name if $f eq $label;
}
close $ex;

sub unescape
{
	my ($s) = @_;
	$s =~ s/\\#/#/g;
	return $s;
}

my @asserts;    # { ok => 0/1, name => ..., todo => ... }
my $last;       # last assertion, for "# " name continuation lines
open my $in, '<', $tapfile or die "cannot read $tapfile: $!\n";
while (my $line = <$in>)
{
	chomp $line;
	if ($line =~ /^(not )?ok \d+(?: - ((?:[^#\\]|\\.)*?))?\s*(?:# (TODO|SKIP)\b(.*))?$/)
	{
		$last = {
			ok   => !defined $1,
			name => unescape(defined $2 ? $2 : ''),
			todo => defined $3 ? "$3:$4" : undef
		};
		push @asserts, $last;
	}
	elsif (defined $last && $line =~ /^# (.*)$/ && $line !~ /^#\s{2,}/)
	{
		# continuation of a name that holds a newline (diagnostics, which
		# Test::More indents by two or more spaces, are left alone)
		$last->{name} .= "\n$1";
	}
	else
	{
		undef $last;
	}
}
close $in;

my @cases;
my $cur;
for my $a (@asserts)
{
	if ($a->{name} =~ /\A(.*) status \(got -?\d+ vs expected -?\d+\)\z/s)
	{
		$cur = { name => $1, asserts => [$a], own => 1 };
		push @cases, $cur;
	}
	elsif (defined $cur
		&& $cur->{own}
		&& (   index($a->{name}, "$cur->{name} stdout /") == 0
			|| index($a->{name}, "$cur->{name} stderr /") == 0))
	{
		push @{ $cur->{asserts} }, $a;
	}
	elsif (defined $cur)
	{
		$cur->{own} = 0;
		push @{ $cur->{asserts} }, { %$a, after => 1 };
	}
	else
	{
		# an assertion before the first pgbench call: none in this suite
		print STDERR "tap-cases: $label: assertion before any pgbench call: $a->{name}\n";
	}
}

sub oneline
{
	my ($s) = @_;
	$s =~ s/\t/\\t/g;
	$s =~ s/\n/\\n/g;
	return $s;
}

my $n = @expected > @cases ? @expected : @cases;
for my $i (0 .. $n - 1)
{
	my $seq = $i + 1;
	if ($i >= @cases)
	{
		my $why = 'not judged: the test script stopped at or before this call'
		  . (defined $stopped && $stopped ne '' ? " ($stopped)" : '');
		print join("\t", $label, $seq, oneline($expected[$i]), 'no', 0, $why), "\n";
		next;
	}
	my $c = $cases[$i];
	if ($i < @expected)
	{
		my $re = join '\d+', map { quotemeta } split /<N>/, $expected[$i], -1;
		print STDERR "tap-cases: $label case $seq is \"$c->{name}\", "
		  . "expected \"$expected[$i]\" (vendored tests changed?)\n"
		  unless $c->{name} =~ /\A$re\z/;
	}
	else
	{
		print STDERR "tap-cases: $label case $seq \"$c->{name}\" is not in $expectedfile\n";
	}
	my @failed;
	for my $a (@{ $c->{asserts} })
	{
		next if $a->{ok};
		my $name = $a->{name};
		# the names of own assertions all start with the case name
		$name = substr($name, length($c->{name}) + 1)
		  if !$a->{after} && index($name, "$c->{name} ") == 0;
		$name = "after: $name" if $a->{after};
		$name .= " [$a->{todo}]" if defined $a->{todo};
		push @failed, oneline($name);
	}
	print join("\t",
		$label, $seq, oneline($c->{name}),
		@failed ? 'no' : 'yes',
		scalar(@{ $c->{asserts} }),
		join(' | ', @failed)),
	  "\n";
}

#!/usr/bin/env python3
"""Writes fuzz-expressions.txt: random pgbench expressions (70% from the grammar, 30% token soup), deduplicated and
sorted, from a fixed seed, for run-pgbench.sh to run through pgbench 15 (with -D x=3 -D y=2.5).

abs() is left out: pgbench's abs() of a computed boolean reads uninitialised memory (see conformance.md).

    python3 reports/bench-script/conformance/fuzz-expressions.py > reports/bench-script/conformance/fuzz-expressions.txt
"""
import random

SEED = 3
COUNT = 900
ATOMS = ["0", "1", "2", "3", "7", "-1", "10", "255", "9223372036854775807", "9223372036854775808", "1.5", "0.5",
         "2.0", "1e3", ".25", "3.", "true", "false", "null", ":x", ":y", "pi()"]
BINARY = ["+", "-", "*", "/", "%", "=", "<>", "!=", "<", "<=", ">", ">=", "and", "or", "&", "|", "#", "<<", ">>"]
FUNCTIONS = [("sqrt", 1), ("ln", 1), ("exp", 1), ("int", 1), ("double", 1), ("least", -1), ("greatest", -1),
             ("pow", 2), ("power", 2), ("mod", 2), ("hash", 1), ("hash", 2), ("hash_fnv1a", 2), ("permute", 2),
             ("permute", 3), ("random", 2), ("debug", 1), ("random_exponential", 3), ("random_gaussian", 3),
             ("random_zipfian", 3)]
TOKENS = ATOMS + BINARY + ["(", ")", ",", "case", "when", "then", "else", "end", "is", "not", "isnull", "notnull",
                           "sqrt(", "least(", "foo(", "$", "~", "-", "9223372036854775808", "1e-400"]


def expression(rng, depth):
    r = rng.random()
    if depth > 3 or r < 0.25:
        return rng.choice(ATOMS)
    if r < 0.55:
        return expression(rng, depth + 1) + " " + rng.choice(BINARY) + " " + expression(rng, depth + 1)
    if r < 0.62:
        return rng.choice(["-", "+", "~", "not ", "- "]) + expression(rng, depth + 1)
    if r < 0.68:
        return expression(rng, depth + 1) + " " + rng.choice(
            ["is null", "is not null", "isnull", "notnull", "is true", "is not false"])
    if r < 0.75:
        return "(" + expression(rng, depth + 1) + ")"
    if r < 0.9:
        name, count = rng.choice(FUNCTIONS)
        if count < 0:
            count = rng.randint(1, 4)
        if rng.random() < 0.1:
            count += rng.choice([-1, 1])
        return name + "(" + ", ".join(expression(rng, depth + 1) for _ in range(max(count, 0))) + ")"
    text = "case"
    for _ in range(rng.randint(1, 3)):
        text += " when " + expression(rng, depth + 1) + " then " + expression(rng, depth + 1)
    if rng.random() < 0.5:
        text += " else " + expression(rng, depth + 1)
    return text + " end"


def main():
    rng = random.Random(SEED)
    lines = set()
    for _ in range(COUNT):
        if rng.random() < 0.7:
            lines.add(expression(rng, 0))
        else:
            lines.add(" ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 7))))
    for line in sorted(lines):
        if not line.startswith("#"):  # a comment to the files that hold them
            print(line)


main()

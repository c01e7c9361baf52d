/**
 * pgbench's script language as PostgreSQL 15's pgbench has it: values, expressions and their functions, the
 * pseudo-random generator and hashes bit for bit as pgbench's, and scripts (SQL commands and meta-commands) parsed
 * with pgbench's errors. The lowest package: it knows nothing of JDBC or of the runner.
 */
package dev.gauntlet.script.lang;

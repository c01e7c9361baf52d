/**
 * Scripts run by the runner's clients: one pass through a script is one transaction, its SQL sent over JDBC in
 * pgbench's query modes, its meta-commands interpreted, its variables each client's own.
 */
package dev.gauntlet.script.workload;

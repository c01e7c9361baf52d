/**
 * The four pgbench tables as {@code pgbench -i} creates and fills them (scale, fillfactor, unlogged, partitions,
 * foreign keys), and what is loaded, read back from the data.
 */
package dev.gauntlet.script.schema;

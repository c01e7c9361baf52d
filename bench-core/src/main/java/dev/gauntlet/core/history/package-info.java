/**
 * Results over time: runs of the same benchmark grouped into series ({@link SeriesKey}), each figure's values over
 * the runs searched for change points ({@link EDivisive}: E-divisive means with a permutation test), a gate for CI,
 * and where runs are kept besides their directories ({@link ResultStore}). Depends on {@code result} alone; the
 * {@code report} package writes it as history.md and history.html, and nothing in the engine depends on it.
 */
package dev.gauntlet.core.history;

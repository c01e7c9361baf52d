/**
 * Searches over runs: a {@link dev.gauntlet.core.search.RunSearch} chooses each run from the results of the ones
 * before, {@link dev.gauntlet.core.search.SearchRun} runs its steps and writes its summary, and
 * {@link dev.gauntlet.core.search.RateSearch} is the capacity search ({@code --find-max-rate}): the highest rate that
 * meets a run's objectives. Depends on the runner, the results, the objectives and the reports; nothing here knows a
 * workload or a database.
 */
package dev.gauntlet.core.search;

package dev.gauntlet.core.result;

/**
 * Where a result's reporting intervals are at full resolution: {@code file}, beside {@code result.json} (a
 * {@link TimelineFile}), holding {@code intervals} of them. Every run writes one; the result's own {@code intervals}
 * are the same for a short run and downsampled for a long one ({@link InlineIntervals}).
 *
 * @param file      the file's name, in the result's directory
 * @param intervals how many reporting intervals it holds
 */
public record FullTimeline(String file, long intervals) {
}

package dev.gauntlet.core.result;

import java.util.BitSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which part of a run one driver process did, when several share it ({@code --worker I/N}): worker {@code I} of
 * {@code N}, counting from 0 as Kubernetes' {@code JOB_COMPLETION_INDEX} does. A merged result's share is the union
 * of its inputs' ({@code 0,1/4}); a whole run is {@code 0/1}. Results carry it as the parameter {@value #PARAMETER},
 * so a merge can tell that its inputs' shares are disjoint and complete.
 */
public record WorkerShare(BitSet indices, int count) {

    public static final String PARAMETER = "worker";

    /** One process doing all of it. */
    public static final WorkerShare WHOLE = of(0, 1);

    public WorkerShare {
        indices = (BitSet) indices.clone();
        if (count < 1) {
            throw new IllegalArgumentException("a run is split into at least 1 worker (got " + count + ")");
        }
        if (indices.isEmpty() || indices.length() > count) {
            throw new IllegalArgumentException("worker " + indices + " is not one of 0.." + (count - 1));
        }
    }

    public static WorkerShare of(int index, int count) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("worker " + index + "/" + count
                    + " is not one of 0/" + count + " .. " + (count - 1) + "/" + count);
        }
        BitSet one = new BitSet(count);
        one.set(index);
        return new WorkerShare(one, count);
    }

    /** {@code I/N} (e.g. {@code 2/4}) or, for merged shares, {@code I,J,.../N}. */
    public static WorkerShare parse(String text) {
        String s = text.strip();
        int slash = s.indexOf('/');
        if (slash < 1 || slash == s.length() - 1) {
            throw new IllegalArgumentException("worker '" + text + "' is not I/N (e.g. 0/4: the first of four workers)");
        }
        try {
            int count = Integer.parseInt(s.substring(slash + 1).strip());
            BitSet indices = new BitSet();
            for (String i : s.substring(0, slash).split(",")) {
                int index = Integer.parseInt(i.strip());
                if (count < 1 || index < 0 || index >= count) {
                    throw new IllegalArgumentException("worker '" + text + "' is not I/N with 0 <= I < N");
                }
                indices.set(index);
            }
            return new WorkerShare(indices, count);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("worker '" + text + "' is not I/N (e.g. 0/4: the first of four workers)");
        }
    }

    /** The share a result records, or {@link #WHOLE} when it records none (a run of one process). */
    public static WorkerShare of(RunResult result) {
        Object value = result.parameters().get(PARAMETER);
        return value == null ? WHOLE : parse(value.toString());
    }

    /** The only index of a single worker's share. */
    public int index() {
        if (indices.cardinality() != 1) {
            throw new IllegalStateException("share " + label() + " is several workers'");
        }
        return indices.nextSetBit(0);
    }

    public boolean whole() {
        return indices.cardinality() == count;
    }

    /**
     * This worker's part of {@code total} things numbered {@code 0..total-1}: a contiguous range, the parts of all
     * workers disjoint and covering them, sizes differing by at most one (the first {@code total mod N} workers take
     * one more). A worker may get none when there are fewer things than workers.
     */
    public Range part(int total) {
        int index = index();
        int base = total / count;
        int extra = total % count;
        int from = index * base + Math.min(index, extra);
        return new Range(from, from + base + (index < extra ? 1 : 0));
    }

    /** The shares of several results together: refused when two overlap or they are parts of different splits. */
    public static WorkerShare union(List<WorkerShare> shares) {
        int count = shares.get(0).count;
        BitSet all = new BitSet(count);
        for (WorkerShare s : shares) {
            if (s.count != count) {
                throw new IllegalArgumentException("shares of different splits (" + shares.stream()
                        .map(WorkerShare::label).collect(Collectors.joining(", ")) + ")");
            }
            if (all.intersects(s.indices)) {
                BitSet twice = (BitSet) all.clone();
                twice.and(s.indices);
                throw new IllegalArgumentException("worker " + new WorkerShare(twice, count).label()
                        + " is given more than once");
            }
            all.or(s.indices);
        }
        return new WorkerShare(all, count);
    }

    /** The workers of this split that are not in this share, as {@code I,J/N}; empty when whole. */
    public String missing() {
        BitSet rest = new BitSet(count);
        rest.set(0, count);
        rest.andNot(indices);
        return rest.isEmpty() ? "" : new WorkerShare(rest, count).label();
    }

    public String label() {
        return indices.stream().mapToObj(Integer::toString).collect(Collectors.joining(",")) + "/" + count;
    }

    @Override
    public String toString() {
        return label();
    }

    /** Things {@code from} (inclusive) to {@code to} (exclusive). */
    public record Range(int from, int to) {

        public int size() {
            return to - from;
        }
    }
}

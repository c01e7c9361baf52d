package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;
import java.util.Locale;

/**
 * When a fill calls {@code FlushWAL} itself: {@code never} (like db_bench), {@code every:N} puts per thread
 * ({@code flushWal(false)}: hand the buffer to the OS, no fsync), or at the {@code end}
 * ({@code flushWal(true)} before the database closes).
 */
public record FlushWalPolicy(Kind kind, long every) {

    public enum Kind { NEVER, EVERY, END }

    public static final FlushWalPolicy NEVER = new FlushWalPolicy(Kind.NEVER, 0);
    public static final FlushWalPolicy END = new FlushWalPolicy(Kind.END, 0);

    public FlushWalPolicy {
        if (kind == Kind.EVERY && every < 1) {
            throw new BadInputException("--flush-wal every:N needs N >= 1 (got " + every + ")");
        }
    }

    public static FlushWalPolicy parse(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("never")) {
            return NEVER;
        }
        if (s.equals("end")) {
            return END;
        }
        if (s.startsWith("every:")) {
            try {
                return new FlushWalPolicy(Kind.EVERY, Long.parseLong(s.substring("every:".length())));
            } catch (NumberFormatException e) {
                // Falls through to the message below.
            }
        }
        throw new BadInputException("--flush-wal '" + spec + "' is not one of never, every:N (N puts per thread), end");
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NEVER -> "never";
            case END -> "end";
            case EVERY -> "every:" + every;
        };
    }
}

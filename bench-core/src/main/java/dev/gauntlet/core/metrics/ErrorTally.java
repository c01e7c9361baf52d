package dev.gauntlet.core.metrics;

import dev.gauntlet.core.result.ErrorCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Failures counted by class and code (SQLSTATE), each with the first message seen as an example. */
public final class ErrorTally {

    private record Key(String errorClass, String code) {
    }

    private static final class Entry {
        final LongAdder count = new LongAdder();
        final String example;

        Entry(String example) {
            this.example = example;
        }
    }

    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    public void count(String errorClass, String code, String message) {
        Key key = new Key(errorClass, code == null ? "" : code);
        entries.computeIfAbsent(key, k -> new Entry(abbreviate(message))).count.increment();
        total.increment();
    }

    public long total() {
        return total.sum();
    }

    public long count(String errorClass) {
        return entries.entrySet().stream().filter(e -> e.getKey().errorClass.equals(errorClass))
                .mapToLong(e -> e.getValue().count.sum()).sum();
    }

    public List<ErrorCount> snapshot() {
        List<ErrorCount> list = new ArrayList<>();
        entries.forEach((k, v) -> list.add(new ErrorCount(k.errorClass, k.code, v.count.sum(), v.example)));
        list.sort(Comparator.comparingLong(ErrorCount::count).reversed().thenComparing(ErrorCount::errorClass));
        return list;
    }

    private static String abbreviate(String message) {
        if (message == null) {
            return "";
        }
        String oneLine = message.replaceAll("\\s+", " ").trim();
        return oneLine.length() > 300 ? oneLine.substring(0, 297) + "..." : oneLine;
    }
}

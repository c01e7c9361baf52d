package dev.gauntlet.core.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A comma-separated option of names ({@code --pool direct,pooled}, {@code --variant jsonb,text}) read into values:
 * an unknown name (the parser's {@link IllegalArgumentException}) or one given twice is bad input, in one line.
 */
public final class NameList {

    private NameList() {
    }

    public static <T> List<T> parse(String option, List<String> names, Function<String, T> parser) {
        List<T> values = new ArrayList<>();
        for (String name : names) {
            T value;
            try {
                value = parser.apply(name.strip());
            } catch (IllegalArgumentException e) {
                throw new BadInputException(option + ": " + e.getMessage(), e);
            }
            if (values.contains(value)) {
                throw new BadInputException(option + " lists " + name.strip() + " twice");
            }
            values.add(value);
        }
        return values;
    }
}

package dev.gauntlet.core.cli;

import java.time.Duration;
import dev.gauntlet.core.result.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations as people type them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1h30m}; a bare number is seconds. */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** The short form used in progress lines and reports: 90s -> "1m30s". */
    public static String format(Duration d) {
        return Durations.format(d);
    }
}

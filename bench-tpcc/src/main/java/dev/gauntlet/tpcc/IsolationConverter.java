package dev.gauntlet.tpcc;

import dev.gauntlet.tpcc.workload.Isolation;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --isolation read-committed|repeatable-read|serializable}. */
public final class IsolationConverter implements ITypeConverter<Isolation> {
    @Override
    public Isolation convert(String value) {
        try {
            return Isolation.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}

package dev.gauntlet.core.result;

/** A file given as a result is not one: corrupt, foreign, or written by a newer Gauntlet. */
public final class ResultFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ResultFormatException(String message) {
        super(message);
    }
}

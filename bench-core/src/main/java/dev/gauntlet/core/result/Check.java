package dev.gauntlet.core.result;

/** The outcome of one correctness check (a consistency condition, a mix audit, a spec limit). */
public record Check(String name, Status status, String detail) {

    public enum Status { PASS, FAIL, SKIP }

    public static Check pass(String name, String detail) {
        return new Check(name, Status.PASS, detail);
    }

    public static Check fail(String name, String detail) {
        return new Check(name, Status.FAIL, detail);
    }

    public static Check skip(String name, String detail) {
        return new Check(name, Status.SKIP, detail);
    }
}

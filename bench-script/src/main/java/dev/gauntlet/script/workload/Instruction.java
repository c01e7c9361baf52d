package dev.gauntlet.script.workload;

/**
 * One step of a compiled script: does its work in a transaction's {@link Execution} and says where the script goes
 * next. A conditional compiles to branches and jumps, so running a script never searches it.
 */
interface Instruction {

    /** Returned by {@link #run} to go on with the next instruction. */
    int NEXT = -1;

    /** Does the work; returns the index of the instruction to go to, or {@link #NEXT}. */
    int run(Execution x) throws Exception;

    /** The script command this comes from (0-based, as {@code -r} counts them), or -1 for a jump of a conditional. */
    int command();
}

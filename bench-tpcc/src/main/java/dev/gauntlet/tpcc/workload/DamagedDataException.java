package dev.gauntlet.tpcc.workload;

/**
 * The data is not what the load wrote: a row a transaction needs is missing (other than the unused item id
 * that New-Order looks for on purpose). Carries no SQLSTATE, so the core classifies it as fatal and stops the
 * run with this message: going on would count work that did not happen, or roll back orders that were
 * meant to commit.
 */
final class DamagedDataException extends RuntimeException {

    DamagedDataException(String message) {
        super("damaged data: " + message + "; reload with init --drop");
    }
}

package dev.gauntlet.script;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.script.checks.TpcbChecks;
import dev.gauntlet.script.schema.InitSteps;
import dev.gauntlet.script.schema.PartitionMethod;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.sql.cli.SqlSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The pgbench tables as the generic {@code init}, {@code check} and {@code drop} see them: made as {@code pgbench -i}
 * makes them, with pgbench's own option spellings, and checked against the TPC-B invariants the built-in scripts
 * keep. Tables {@code pgbench -i} made read and check the same, so pgbench and Gauntlet can share a database.
 */
public final class PgbenchTables implements SqlSchema<PgbenchSchema.Loaded> {

    /** The program in the examples. */
    private static final String PROGRAM = "bench-script";

    /**
     * {@code init}'s options, spelled and bounded as pgbench's: a bad value is refused while the command line is read,
     * with pgbench's message, and so is each {@code pgbench -i} option init does not support, by name.
     */
    public static final class LoadOptions {

        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        private int scale = 1;
        private int fillfactor = 100;
        private int partitions;
        private PartitionMethod partitionMethod;

        @Option(names = {"-n", "--no-vacuum"},
                description = "Skip the ANALYZE that stands for pgbench's vacuum step.")
        boolean noVacuum;

        @Option(names = {"-q", "--quiet"},
                description = "Accepted as pgbench accepts it: init prints no per-row progress in any case.")
        boolean quiet;

        @Option(names = {"-s", "--scale"}, paramLabel = "NUM",
                description = "Scaling factor: NUM branches, 10 x NUM tellers, 100,000 x NUM accounts (default: 1). "
                        + "From 20,000 on account ids are bigint, as pgbench makes them.")
        void scale(int value) {
            scale = inRange("-s/--scale", value, 1, Integer.MAX_VALUE);
        }

        @Option(names = {"-F", "--fillfactor"}, paramLabel = "NUM",
                description = "Fill factor of pgbench_branches, pgbench_tellers and pgbench_accounts, 10..100 "
                        + "(default: 100).")
        void fillfactor(int value) {
            fillfactor = inRange("-F/--fillfactor", value, 10, 100);
        }

        @Option(names = "--partitions", paramLabel = "NUM",
                description = "Partition pgbench_accounts into NUM parts (default: 0, not partitioned).")
        void partitions(int value) {
            partitions = inRange("--partitions", value, 0, Integer.MAX_VALUE);
        }

        @Option(names = "--partition-method", paramLabel = "range|hash",
                description = "Partition pgbench_accounts with this method (default: range); needs --partitions.")
        void partitionMethod(String value) {
            try {
                partitionMethod = PartitionMethod.parse(value);
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
        }

        @Option(names = "--foreign-keys", description = "Create foreign key constraints between the tables.")
        boolean foreignKeys;

        @Option(names = "--unlogged-tables", description = "Create the tables as unlogged tables.")
        boolean unloggedTables;

        @Option(names = {"-I", "--init-steps"}, paramLabel = "STEPS", hidden = true)
        void initSteps(String steps) {
            throw bad("-I/--init-steps is not supported: init runs pgbench's default steps (dtgvp, dtgvpf with "
                    + "--foreign-keys) in one transaction; --drop is its d, -n leaves out its v");
        }

        @Option(names = "--tablespace", paramLabel = "TABLESPACE", hidden = true)
        void tablespace(String name) {
            throw bad("--tablespace is not supported: init creates the tables in the database's default tablespace");
        }

        @Option(names = "--index-tablespace", paramLabel = "TABLESPACE", hidden = true)
        void indexTablespace(String name) {
            throw bad("--index-tablespace is not supported: init creates the indexes in the database's default "
                    + "tablespace");
        }

        /**
         * The tables these options make.
         *
         * @throws BadInputException for {@code --partition-method} without {@code --partitions}, as pgbench refuses it
         */
        PgbenchSchema.Loaded tables() {
            if (partitionMethod != null && partitionMethod != PartitionMethod.NONE && partitions == 0) {
                throw new BadInputException("--partition-method requires greater than zero --partitions");
            }
            PartitionMethod method = partitions == 0 ? PartitionMethod.NONE
                    : partitionMethod == null ? PartitionMethod.RANGE : partitionMethod;
            return new PgbenchSchema.Loaded(scale, fillfactor, partitions, method, foreignKeys, unloggedTables);
        }

        private int inRange(String option, int value, int min, int max) {
            if (value < min || value > max) {
                throw bad(option + " must be in range " + min + ".." + max);
            }
            return value;
        }

        /** Bad input found while the command line is read: one line naming the option, exit 2. */
        private RuntimeException bad(String message) {
            return mixee == null ? new BadInputException(message) : new ParameterException(mixee.commandLine(), message);
        }
    }

    /** {@code check}'s option. */
    public static final class CheckOptions {
        @Option(names = {"-N", "--skip-some-updates"},
                description = "simple-update (pgbench -N) ran too: check sum(abalance) = sum(delta) and "
                        + "sum(bbalance) = sum(tbalance) instead of all four sums equal.")
        boolean skipSomeUpdates;
    }

    private final LoadOptions load = new LoadOptions();
    private final CheckOptions check = new CheckOptions();

    @Override
    public String name() {
        return "pgbench";
    }

    @Override
    public String tables() {
        return "the pgbench tables";
    }

    @Override
    public String description(String command) {
        return switch (command) {
            case "init" -> "Creates and fills the pgbench tables as PostgreSQL 15's 'pgbench -i' does, in one "
                    + "transaction; --drop replaces what is there.%n"
                    + "The same tables, columns, fill factor, partitions and bounds, keys and rows, made by pgbench's "
                    + "own statements (client-side generation, through COPY). pgbench's VACUUM cannot run in a "
                    + "transaction: init runs ANALYZE of each table instead, and COPYs the tables that are not "
                    + "partitioned with FREEZE, which leaves them frozen and all-visible as the vacuum would.%n"
                    + "pgbench's -I/--init-steps, --tablespace and --index-tablespace are refused by name.";
            case "check" -> "Checks the pgbench tables in one read-only snapshot against what the built-in scripts "
                    + "keep: sum(abalance) = sum(bbalance) = sum(tbalance) = sum(delta) (with -N, the sums "
                    + "simple-update keeps), accounts, tellers and branches 1..N as loaded, each in its branch, and "
                    + "every history row naming an existing account, teller and branch with a delta in -5000..5000. "
                    + "Exit 0 when all pass, 1 when one fails.%n"
                    + "Tables 'pgbench -i' made are checked the same way.";
            case "drop" -> "Drops pgbench_accounts (and its partitions), pgbench_branches, pgbench_history and "
                    + "pgbench_tellers, as pgbench's d step.";
            default -> SqlSchema.super.description(command);
        };
    }

    @Override
    public List<String> examples(String command) {
        return switch (command) {
            case "init" -> List.of(PROGRAM + " init -s 10                     # 10 branches, 1,000,000 accounts",
                    PROGRAM + " init -s 100 --partitions 8 --partition-method hash --foreign-keys",
                    PROGRAM + " init --drop -s 10 -F 90 --unlogged-tables --url jdbc:postgresql://db:5432/bench "
                            + "--user bench");
            case "check" -> List.of(PROGRAM + " check",
                    PROGRAM + " check -N                     # after runs of simple-update (pgbench -N)",
                    PROGRAM + " check --url jdbc:postgresql://db:5432/bench --user bench   # tables pgbench -i made");
            default -> List.of(PROGRAM + " " + command,
                    PROGRAM + " " + command + " --url jdbc:postgresql://db:5432/bench --user bench --password");
        };
    }

    @Override
    public Object loadOptions() {
        return load;
    }

    @Override
    public Object checkOptions() {
        return check;
    }

    @Override
    public PgbenchSchema.Loaded loaded(Connection c) throws SQLException {
        return PgbenchSchema.loaded(c);
    }

    /**
     * {@code run --init}: the tables at {@code scale} with pgbench's defaults (no partitions, fillfactor 100), in one
     * transaction of its own on {@code c}.
     */
    static PgbenchSchema.Loaded initialize(Connection c, int scale, java.io.PrintStream out) throws SQLException {
        PgbenchSchema.Loaded tables = new PgbenchSchema.Loaded(scale, 100, 0, dev.gauntlet.script.schema.PartitionMethod.NONE,
                false, false);
        out.printf(java.util.Locale.ROOT, "Loading the pgbench tables at scale %d...%n", scale);
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            InitSteps steps = PgbenchSchema.load(c, tables, true);
            c.commit();
            out.println(steps);
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
        return tables;
    }

    /** Makes the tables {@code init}'s options say, and tells how long each step took as pgbench does. */
    @Override
    public PgbenchSchema.Loaded load(Connection c) throws SQLException {
        PgbenchSchema.Loaded tables = load.tables();
        InitSteps steps = PgbenchSchema.load(c, tables, !load.noVacuum);
        System.out.println(steps);
        return tables;
    }

    /** {@code the pgbench tables at scale 10 (1,000,000 accounts, 3 range partitions, foreign keys, unlogged)}. */
    @Override
    public String describe(PgbenchSchema.Loaded t) {
        List<String> parts = new ArrayList<>(List.of(String.format(Locale.ROOT, "%,d accounts", t.accounts())));
        if (t.partitionMethod() != PartitionMethod.NONE) {
            parts.add(t.partitions() + " " + t.partitionMethod().spelling() + " partitions");
        }
        if (t.foreignKeys()) {
            parts.add("foreign keys");
        }
        if (t.unlogged()) {
            parts.add("unlogged");
        }
        if (t.fillfactor() != 100) {
            parts.add("fillfactor " + t.fillfactor());
        }
        return String.format(Locale.ROOT, "the pgbench tables at scale %,d (%s)", t.scale(), String.join(", ", parts));
    }

    @Override
    public void drop(Connection c) throws SQLException {
        PgbenchSchema.drop(c);
    }

    @Override
    public List<Check> checks(Connection c, PgbenchSchema.Loaded loaded) throws SQLException {
        return TpcbChecks.run(c, loaded, check.skipSomeUpdates);
    }
}

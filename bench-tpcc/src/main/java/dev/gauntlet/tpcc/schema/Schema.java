package dev.gauntlet.tpcc.schema;

import dev.gauntlet.tpcc.workload.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The nine tables with the specification's keys and the usual secondary indexes, named as cockroach
 * {@code workload tpcc} names them (so a database it loaded can be run and checked here, and the other way
 * round), plus {@code tpcc_load}, which records finished warehouses, and {@code tpcc_load_plan}, which records what
 * a load set out to do and whether it got to the end ({@link LoadPlan}): a partial load is refused by {@code run} and
 * {@code check}, and {@code init --resume} finishes it instead of starting over.
 *
 * <p>On PostgreSQL the tables are created bare and keys and indexes are built after the bulk load, which
 * is several times faster than maintaining them row by row; CockroachDB needs its primary keys up front.
 */
public final class Schema {

    /** One table: its columns for CREATE TABLE (without keys) and its primary key. */
    record Table(String name, String columns, String primaryKey) {
    }

    /** A secondary index. */
    record Index(String name, String table, String columns) {
    }

    static final Table WAREHOUSE = new Table("warehouse", """
            w_id int NOT NULL, w_name varchar(10), w_street_1 varchar(20), w_street_2 varchar(20), \
            w_city varchar(20), w_state char(2), w_zip char(9), w_tax decimal(4,4), w_ytd decimal(12,2)""", "w_id");
    static final Table DISTRICT = new Table("district", """
            d_id int NOT NULL, d_w_id int NOT NULL, d_name varchar(10), d_street_1 varchar(20), \
            d_street_2 varchar(20), d_city varchar(20), d_state char(2), d_zip char(9), d_tax decimal(4,4), \
            d_ytd decimal(12,2), d_next_o_id int""", "d_w_id, d_id");
    static final Table CUSTOMER = new Table("customer", """
            c_id int NOT NULL, c_d_id int NOT NULL, c_w_id int NOT NULL, c_first varchar(16), c_middle char(2), \
            c_last varchar(16), c_street_1 varchar(20), c_street_2 varchar(20), c_city varchar(20), \
            c_state char(2), c_zip char(9), c_phone char(16), c_since timestamp, c_credit char(2), \
            c_credit_lim decimal(12,2), c_discount decimal(4,4), c_balance decimal(12,2), \
            c_ytd_payment decimal(12,2), c_payment_cnt int, c_delivery_cnt int, c_data varchar(500)""",
            "c_w_id, c_d_id, c_id");
    static final Table HISTORY = new Table("history", """
            h_c_id int, h_c_d_id int, h_c_w_id int, h_d_id int, h_w_id int, h_date timestamp, \
            h_amount decimal(6,2), h_data varchar(24)""", null);
    static final Table ORDER = new Table("\"order\"", """
            o_id int NOT NULL, o_d_id int NOT NULL, o_w_id int NOT NULL, o_c_id int, o_entry_d timestamp, \
            o_carrier_id int, o_ol_cnt int, o_all_local int""", "o_w_id, o_d_id, o_id");
    static final Table NEW_ORDER = new Table("new_order", """
            no_o_id int NOT NULL, no_d_id int NOT NULL, no_w_id int NOT NULL""", "no_w_id, no_d_id, no_o_id");
    static final Table ITEM = new Table("item", """
            i_id int NOT NULL, i_im_id int, i_name varchar(24), i_price decimal(5,2), i_data varchar(50)""", "i_id");
    static final Table STOCK = new Table("stock", """
            s_i_id int NOT NULL, s_w_id int NOT NULL, s_quantity int, s_dist_01 char(24), s_dist_02 char(24), \
            s_dist_03 char(24), s_dist_04 char(24), s_dist_05 char(24), s_dist_06 char(24), s_dist_07 char(24), \
            s_dist_08 char(24), s_dist_09 char(24), s_dist_10 char(24), s_ytd int, s_order_cnt int, \
            s_remote_cnt int, s_data varchar(50)""", "s_w_id, s_i_id");
    static final Table ORDER_LINE = new Table("order_line", """
            ol_o_id int NOT NULL, ol_d_id int NOT NULL, ol_w_id int NOT NULL, ol_number int NOT NULL, \
            ol_i_id int, ol_supply_w_id int, ol_delivery_d timestamp, ol_quantity int, ol_amount decimal(6,2), \
            ol_dist_info char(24)""", "ol_w_id, ol_d_id, ol_o_id, ol_number");

    static final List<Table> TABLES = List.of(WAREHOUSE, DISTRICT, CUSTOMER, HISTORY, ORDER, NEW_ORDER, ITEM,
            STOCK, ORDER_LINE);
    /** Tables whose rows belong to one warehouse, with the column that says which. */
    static final List<String[]> PER_WAREHOUSE = List.of(
            new String[] {"warehouse", "w_id"}, new String[] {"district", "d_w_id"},
            new String[] {"customer", "c_w_id"}, new String[] {"history", "h_w_id"},
            new String[] {"\"order\"", "o_w_id"}, new String[] {"new_order", "no_w_id"},
            new String[] {"stock", "s_w_id"}, new String[] {"order_line", "ol_w_id"});

    static final List<Index> INDEXES = List.of(
            new Index("customer_idx", "customer", "c_w_id, c_d_id, c_last, c_first"),
            new Index("order_idx", "\"order\"", "o_w_id, o_d_id, o_c_id, o_id"));

    static final String LOAD_TABLE = "tpcc_load";

    private final Dialect dialect;

    public Schema(Dialect dialect) {
        this.dialect = dialect;
    }

    /** True when the nine tables and the load record exist in the current schema. */
    public static boolean exists(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                        + "AND table_name = ANY (?)")) {
            String[] names = TABLES.stream().map(t -> t.name().replace("\"", "")).toArray(String[]::new);
            String[] all = java.util.Arrays.copyOf(names, names.length + 1);
            all[names.length] = LOAD_TABLE;
            s.setArray(1, c.createArrayOf("varchar", all));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) == all.length;
            }
        }
    }

    /**
     * True when the tables exist with their primary keys and secondary indexes: the load's last step is done (a run
     * waiting for another process's load starts only then).
     */
    public static boolean indexed(Connection c) throws SQLException {
        if (!exists(c)) {
            return false;
        }
        for (Table t : TABLES) {
            if (t.primaryKey() != null && !hasPrimaryKey(c, t)) {
                return false;
            }
        }
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_catalog.pg_indexes "
                + "WHERE schemaname = current_schema() AND indexname = ANY (?)")) {
            s.setArray(1, c.createArrayOf("varchar", INDEXES.stream().map(Index::name).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) == INDEXES.size();
            }
        }
    }

    /**
     * Creates whatever tables are missing (keys up front only where the dialect needs them). A plan without its load
     * record (left by a {@code drop} from before plans were recorded) is stale and goes.
     */
    public void create(Connection c) throws SQLException {
        boolean recorded = tableExists(c, LOAD_TABLE);
        try (Statement s = c.createStatement()) {
            for (Table t : TABLES) {
                s.execute("CREATE TABLE IF NOT EXISTS " + t.name() + " (" + columns(t) + ")");
            }
            if (!recorded) {
                s.execute("DROP TABLE IF EXISTS " + LoadPlan.TABLE);
            }
            s.execute("CREATE TABLE IF NOT EXISTS " + LOAD_TABLE + " (w_id int PRIMARY KEY, "
                    + "c_last_constant int NOT NULL, finished_at timestamptz NOT NULL DEFAULT now())");
            s.execute("CREATE TABLE IF NOT EXISTS " + LoadPlan.TABLE + " (" + LoadPlan.COLUMNS + ")");
        }
    }

    /** True when {@code table} (unquoted) exists in the current schema. */
    static boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_name = ?")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private String columns(Table t) {
        if (dialect == Dialect.COCKROACH) {
            if (t.primaryKey() == null) {
                return "rowid uuid PRIMARY KEY DEFAULT gen_random_uuid(), " + t.columns();
            }
            return t.columns() + ", PRIMARY KEY (" + t.primaryKey() + ")";
        }
        return t.columns();
    }

    /** Builds missing primary keys and secondary indexes (PostgreSQL builds them after the bulk load). */
    public void createIndexes(Connection c) throws SQLException {
        createKeys(c);
        createSecondaryIndexes(c);
    }

    /** The primary keys a load leaves out while it copies (PostgreSQL; other dialects create them with the tables). */
    public void createKeys(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (dialect == Dialect.POSTGRES) {
                for (Table t : TABLES) {
                    if (t.primaryKey() != null && !hasPrimaryKey(c, t)) {
                        s.execute("ALTER TABLE " + t.name() + " ADD PRIMARY KEY (" + t.primaryKey() + ")");
                    }
                }
            }
        }
    }

    /** The secondary indexes the transactions need. */
    public void createSecondaryIndexes(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (Index i : INDEXES) {
                s.execute("CREATE INDEX IF NOT EXISTS " + i.name() + " ON " + i.table() + " (" + i.columns() + ")");
            }
        }
    }

    private static boolean hasPrimaryKey(Connection c, Table t) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM information_schema.table_constraints "
                + "WHERE table_schema = current_schema() AND table_name = ? AND constraint_type = 'PRIMARY KEY'")) {
            s.setString(1, t.name().replace("\"", ""));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    /** Drops the nine tables, the load record and the load plan. */
    public static void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (Table t : TABLES) {
                s.execute("DROP TABLE IF EXISTS " + t.name());
            }
            s.execute("DROP TABLE IF EXISTS " + LOAD_TABLE);
            s.execute("DROP TABLE IF EXISTS " + LoadPlan.TABLE);
        }
    }
}

package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PoolModeTest {

    @Test
    void parsesTheThreeModesInAnyCase() {
        assertEquals(PoolMode.DIRECT, PoolMode.parse("direct"));
        assertEquals(PoolMode.POOLED, PoolMode.parse("Pooled"));
        assertEquals(PoolMode.PGBOUNCER, PoolMode.parse("pgbouncer"));
        assertEquals(PoolMode.PGBOUNCER, PoolMode.parse("PGBOUNCER"));
    }

    @Test
    void anUnknownModeIsRefusedNamingTheThree() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolMode.parse("pgpool"));
        assertEquals("pool mode 'pgpool' is none of direct, pooled, pgbouncer", e.getMessage());
    }

    @Test
    void ofRefusesPgBouncerAndPointsAtItsFactory() {
        ConnectionSettings settings = new ConnectionSettings("jdbc:postgresql://localhost:5432/x", "u", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JdbcTarget.of(settings, PoolMode.PGBOUNCER, 2, JdbcTarget.DEFAULT_ISOLATION));
        assertEquals("a PgBouncer target needs the number of clients: use PgBouncer.target",
                e.getMessage());
    }
}

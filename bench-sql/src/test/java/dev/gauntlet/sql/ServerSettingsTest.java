package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.experiment.ServerState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An experiment's cell is refused when its settings are not in effect, never run as if they were. */
class ServerSettingsTest {

    @Test
    void aSettingThatTakesEffectIsReadBackAndOneThatNeedsARestartIsRefused() throws Exception {
        SqlTestServer server = SqlTestServer.shared();
        ServerSettings settings = new ServerSettings(Database.probe(server.settings(), null));
        String buffers = server.scalar("SHOW shared_buffers");
        try {
            settings.apply(List.of("ALTER SYSTEM SET work_mem = '7MB'", "SELECT pg_reload_conf()"));
            assertEquals(Map.of("work_mem", "7MB"), settings.inEffect(Map.of("work_mem", "7MB")));

            // shared_buffers changes only at a restart: the statements run, the setting does not take.
            settings.apply(List.of("ALTER SYSTEM SET shared_buffers = '17MB'", "SELECT pg_reload_conf()"));
            ServerState.Refused refused = assertThrows(ServerState.Refused.class,
                    () -> settings.inEffect(Map.of("shared_buffers", "17MB")));
            assertTrue(refused.getMessage().startsWith("its SQL ran but shared_buffers is still '" + buffers + "'"),
                    refused.getMessage());

            ServerState.Refused broken = assertThrows(ServerState.Refused.class,
                    () -> settings.apply(List.of("ALTER SYSTEM SET no_such_setting = 1")));
            assertTrue(broken.getMessage().startsWith("its SQL failed: "), broken.getMessage());
        } finally {
            settings.apply(List.of("ALTER SYSTEM RESET work_mem", "ALTER SYSTEM RESET shared_buffers",
                    "SELECT pg_reload_conf()"));
        }
    }
}

package dev.gauntlet.script.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyIn;

/** The generated rows are pgbench 15's, byte for byte in COPY's text format. */
class PgbenchRowsTest {

    /** A COPY that keeps what it is sent. */
    private static final class Captured implements CopyIn {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean active = true;

        @Override
        public void writeToCopy(byte[] buf, int off, int siz) {
            bytes.write(buf, off, siz);
        }

        @Override
        public void writeToCopy(org.postgresql.util.ByteStreamWriter from) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void flushCopy() {
        }

        @Override
        public long endCopy() {
            active = false;
            return 0;
        }

        @Override
        public int getFieldCount() {
            return 0;
        }

        @Override
        public int getFormat() {
            return 0;
        }

        @Override
        public int getFieldFormat(int field) {
            return 0;
        }

        @Override
        public boolean isActive() {
            return active;
        }

        @Override
        public void cancelCopy() {
            active = false;
        }

        @Override
        public long getHandledRowCount() {
            return 0;
        }
    }

    private static String rows(GeneratedTable table, long... ks) throws Exception {
        Captured copy = new Captured();
        CopyBuffer buffer = new CopyBuffer(copy);
        for (long k : ks) {
            table.row(buffer, k);
            buffer.endRow();
        }
        buffer.finish();
        return copy.bytes.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void branchesHaveANullFiller() throws Exception {
        assertEquals("1\t0\t\\N\n10\t0\t\\N\n", rows(GeneratedTable.BRANCHES, 0, 9));
    }

    @Test
    void tenTellersABranch() throws Exception {
        assertEquals("1\t1\t0\t\\N\n10\t1\t0\t\\N\n11\t2\t0\t\\N\n", rows(GeneratedTable.TELLERS, 0, 9, 10));
    }

    @Test
    void accountsHaveAnEmptyFillerAndAHundredThousandABranch() throws Exception {
        assertEquals("1\t1\t0\t\n100000\t1\t0\t\n100001\t2\t0\t\n2000000000\t20000\t0\t\n",
                rows(GeneratedTable.ACCOUNTS, 0, 99_999, 100_000, 1_999_999_999));
    }

    @Test
    void aLoadShipsInChunksAndLosesNoByte() throws Exception {
        Captured copy = new Captured();
        CopyBuffer buffer = new CopyBuffer(copy);
        StringBuilder expected = new StringBuilder();
        for (long k = 0; k < 200_000; k++) {
            GeneratedTable.ACCOUNTS.row(buffer, k);
            buffer.endRow();
            expected.append(k + 1).append('\t').append(k / 100_000 + 1).append("\t0\t\n");
        }
        buffer.finish();
        assertEquals(expected.toString(), copy.bytes.toString(StandardCharsets.US_ASCII));
    }
}

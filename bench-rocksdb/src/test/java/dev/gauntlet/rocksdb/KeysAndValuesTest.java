package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.rocksdb.fill.CompressibleValues;
import dev.gauntlet.rocksdb.fill.DbBenchKey;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** Keys and values are made as db_bench makes them. */
class KeysAndValuesTest {

    @Test
    void keyIsBigEndianNumberPaddedWithZeros() {
        byte[] expected = new byte[16];
        expected[6] = 0x01;
        expected[7] = 0x02;
        for (int i = 8; i < 16; i++) {
            expected[i] = '0';
        }
        assertArrayEquals(expected, DbBenchKey.bytes(0x0102, 16));
        assertEquals(0x0102, DbBenchKey.number(DbBenchKey.bytes(0x0102, 16)));
        // Shorter than 8 bytes: the number's low bytes, as db_bench does.
        assertArrayEquals(new byte[] {0x01, 0x02}, DbBenchKey.bytes(0x0102, 2));
    }

    @Test
    void valuesCompressToAboutHalf() {
        CompressibleValues.Cursor c = new CompressibleValues(100, 0.5, 301).cursor(100);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        for (int i = 0; i < 2000; i++) {
            ByteBuffer v = c.next();
            assertEquals(100, v.remaining());
            byte[] b = new byte[100];
            v.get(b);
            raw.writeBytes(b);
        }
        byte[] data = raw.toByteArray();
        Deflater d = new Deflater();
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[data.length];
        int compressed = 0;
        while (!d.finished()) {
            compressed += d.deflate(buf);
        }
        double ratio = (double) compressed / data.length;
        assertTrue(ratio > 0.4 && ratio < 0.65, "ratio " + ratio);
        assertTrue(new String(data, 0, 100, StandardCharsets.US_ASCII).chars().allMatch(ch -> ch >= ' ' && ch <= '~'));
    }
}

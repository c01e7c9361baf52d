package dev.gauntlet.core.result;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Whole-file writes that never leave a half-written file behind: write a sibling, force it to disk, rename it over
 * the target, then force the directory, so a crash or power loss leaves the old file or the new one, never an empty
 * one (a rename can reach the disk before the data it names).
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    public static void write(Path target, byte[] content) throws IOException {
        write(target, out -> out.write(content));
    }

    /** What writes a file's content, streamed. */
    @FunctionalInterface
    public interface Content {
        void writeTo(java.io.OutputStream out) throws IOException;
    }

    /** The same, with the content streamed as {@code content} writes it (a file too large to hold as bytes). */
    public static void write(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
        try {
            writeDurably(tmp, content);
            try {
                // createTempFile makes the file private (0600); results are meant to be shared.
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: default permissions are fine.
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Makes a rename in {@code dir} durable; a no-op where directories cannot be opened (Windows). */
    public static void forceDirectory(Path dir) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir, java.nio.file.StandardOpenOption.READ)) {
            ch.force(true);
        } catch (java.nio.file.AccessDeniedException | UnsupportedOperationException notOnThisPlatform) {
            // Directories cannot be opened for sync here; the file itself was forced.
        }
    }

    /** Writes bytes to a new file and forces them to disk (for staging files renamed into place afterwards). */
    public static void writeDurably(Path file, byte[] content) throws IOException {
        writeDurably(file, out -> out.write(content));
    }

    /** The same, the content streamed. */
    public static void writeDurably(Path file, Content content) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
            java.io.OutputStream out = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch),
                    1 << 16);
            content.writeTo(out);
            out.flush();
            ch.force(true);
        }
    }

    public static void writeString(Path target, String content) throws IOException {
        write(target, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serialises preparing and starting a server on one data directory, across processes (a file lock in the cache,
 * so nothing litters the user's folders) and across threads of this JVM (file locks are held per process).
 * Without it two Gauntlet processes could both run initdb into the same folder, or both start a postmaster and
 * one fail. Lock files are never deleted (that would race with a waiter), so data directories share 256 of them
 * by a hash of their path: a collision only makes two unrelated starts take turns.
 */
final class StartupLock implements AutoCloseable {

    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();

    private final FileChannel channel;
    private final FileLock lock;

    private StartupLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits at most {@code patience} for the lock, so a stuck peer produces an error rather than a hang. */
    static StartupLock acquire(Path cacheDirectory, Path dataDirectory, Duration patience) {
        Path file = cacheDirectory.resolve("locks").resolve("data-" + pathHash(dataDirectory) + ".lock");
        long deadline = System.nanoTime() + patience.toNanos();
        FileChannel channel = null;
        try {
            ServerAccount.createOpenDirectories(file.getParent());
            if (!IN_THIS_JVM.tryLock(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new LocalPostgresException("timed out after " + patience.toSeconds()
                        + " s waiting for another thread that is starting PostgreSQL");
            }
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            while (true) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return new StartupLock(channel, lock);
                }
                if (System.nanoTime() > deadline) {
                    throw new LocalPostgresException("timed out after " + patience.toSeconds()
                            + " s waiting for another process that is starting PostgreSQL in " + dataDirectory
                            + " (lock " + file + ")");
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            release(channel);
            Thread.currentThread().interrupt();
            throw new LocalPostgresException("interrupted while waiting to start PostgreSQL in " + dataDirectory, e);
        } catch (IOException e) {
            release(channel);
            throw new LocalPostgresException("could not lock " + file + ": " + e, e);
        } catch (RuntimeException e) {
            release(channel);
            throw e;
        }
    }

    /** The real path where it exists, so two spellings of one folder share a lock. */
    private static String pathHash(Path dataDirectory) {
        Path parent = dataDirectory.toAbsolutePath().normalize().getParent();
        Path key = dataDirectory.toAbsolutePath().normalize();
        try {
            key = parent.toRealPath().resolve(key.getFileName());
        } catch (IOException e) {
            // The parent does not exist yet; the normalised path is the best name we have.
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static void release(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Nothing was locked through it, or closing released it anyway.
            }
        }
        if (IN_THIS_JVM.isHeldByCurrentThread()) {
            IN_THIS_JVM.unlock();
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // Closing the channel releases the lock in any case.
        } finally {
            IN_THIS_JVM.unlock();
        }
    }
}

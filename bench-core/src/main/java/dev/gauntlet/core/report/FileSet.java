package dev.gauntlet.core.report;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import dev.gauntlet.core.result.AtomicFiles;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files of one output (report.md, charts, maybe result.json), built completely in memory and then written
 * all or nothing: a reader or a failed write never leaves a report that links to a missing chart or a
 * half-written file.
 *
 * <p>A new directory is staged as a hidden sibling and renamed into place in one step. In an existing
 * directory every file is first written to a temporary sibling, and only when all of them are on disk are they
 * renamed over the old ones.
 */
public final class FileSet {

    private static final String FILE_MODE = "rw-r--r--";
    private static final String DIRECTORY_MODE = "rwxr-xr-x";

    private final Map<String, byte[]> files = new LinkedHashMap<>();
    /** Files written already (too large to hold in memory: a merged timeline), moved into place with the others. */
    private final Map<String, Path> written = new LinkedHashMap<>();

    /** Adds (or replaces) a file; the name is a plain file name inside the output directory. */
    public FileSet add(String name, byte[] content) {
        plain(name);
        written.remove(name);
        files.put(name, content.clone());
        return this;
    }

    /**
     * Adds (or replaces) a file already written, {@code file}, moved into place with the others (best on the output
     * directory's file system, where the move is a rename); it is gone from where it was once written.
     */
    public FileSet move(String name, Path file) {
        plain(name);
        files.remove(name);
        written.put(name, file);
        return this;
    }

    private static void plain(String name) {
        if (name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("not a plain file name: " + name);
        }
    }

    public FileSet addText(String name, String content) {
        return add(name, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public Set<String> names() {
        Set<String> names = new java.util.LinkedHashSet<>(files.keySet());
        names.addAll(written.keySet());
        return Collections.unmodifiableSet(names);
    }

    public byte[] content(String name) {
        byte[] b = files.get(name);
        return b == null ? null : b.clone();
    }

    /** Writes every file into {@code dir}, creating it if needed; on failure no new file is left behind. */
    public void writeInto(Path dir) throws IOException {
        Path target = dir.toAbsolutePath().normalize();
        if (Files.exists(target) && !Files.isDirectory(target)) {
            throw new NotDirectoryException(target.toString());
        }
        if (Files.isDirectory(target)) {
            replaceInside(target);
        } else {
            stageAndRename(target);
        }
    }

    private void stageAndRename(Path target) throws IOException {
        Path parent = target.getParent();
        Files.createDirectories(parent);
        Path staging = Files.createTempDirectory(parent, "." + target.getFileName() + ".");
        try {
            readableByAll(staging, DIRECTORY_MODE);
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path file = staging.resolve(f.getKey());
                AtomicFiles.writeDurably(file, f.getValue());
                readableByAll(file, FILE_MODE);
            }
            for (Map.Entry<String, Path> f : written.entrySet()) {
                Path file = staging.resolve(f.getKey());
                Files.move(f.getValue(), file);
                readableByAll(file, FILE_MODE);
            }
            AtomicFiles.forceDirectory(staging);
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(staging, target);
            }
            AtomicFiles.forceDirectory(parent);
        } catch (FileAlreadyExistsException e) {
            // Someone created the directory meanwhile: fall back to replacing files inside it.
            deleteTree(staging);
            replaceInside(target);
        } catch (IOException | RuntimeException e) {
            deleteTree(staging);
            throw e;
        }
    }

    private void replaceInside(Path dir) throws IOException {
        Map<Path, Path> staged = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path tmp = Files.createTempFile(dir, "." + f.getKey() + ".", ".tmp");
                staged.put(tmp, dir.resolve(f.getKey()));
                AtomicFiles.writeDurably(tmp, f.getValue());
                readableByAll(tmp, FILE_MODE);
            }
            for (Map.Entry<String, Path> f : written.entrySet()) {
                Path tmp = Files.createTempFile(dir, "." + f.getKey() + ".", ".tmp");
                staged.put(tmp, dir.resolve(f.getKey()));
                Files.move(f.getValue(), tmp, StandardCopyOption.REPLACE_EXISTING);
                readableByAll(tmp, FILE_MODE);
            }
            for (Map.Entry<Path, Path> s : staged.entrySet()) {
                try {
                    Files.move(s.getKey(), s.getValue(), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(s.getKey(), s.getValue(), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            AtomicFiles.forceDirectory(dir);
        } finally {
            for (Path tmp : staged.keySet()) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** Temporary files are created private (0600/0700); results are meant to be shared, like any output. */
    private static void readableByAll(Path p, String mode) throws IOException {
        if (Files.getFileStore(p).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
            for (Path p : paths) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // Best effort: the staging directory is hidden and named after the target, so a leftover is harmless.
        }
    }
}

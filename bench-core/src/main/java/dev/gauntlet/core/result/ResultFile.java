package dev.gauntlet.core.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes {@code result.json}. Writes are atomic: a reader sees the old file or the new one. */
public final class ResultFile {

    public static final String NAME = "result.json";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultFile() {
    }

    /** Accepts a result file or a run directory holding one. */
    public static Path locate(Path fileOrDir) {
        return Files.isDirectory(fileOrDir) ? fileOrDir.resolve(NAME) : fileOrDir;
    }

    public static RunResult read(Path fileOrDir) {
        Path file = locate(fileOrDir);
        if (!Files.isRegularFile(file)) {
            throw new ResultFormatException(file + ": no such result file");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new ResultFormatException(file + ": not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new ResultFormatException(file + ": cannot read (" + e.getMessage() + ")");
        }
        if (tree == null || !tree.isObject() || !tree.has("schemaVersion") || !tree.has("operations")) {
            throw new ResultFormatException(file + ": not a Gauntlet result (no schemaVersion/operations)");
        }
        int version = tree.get("schemaVersion").asInt(-1);
        if (version < 1 || version > RunResult.SCHEMA_VERSION) {
            throw new ResultFormatException(file + ": result schemaVersion " + tree.get("schemaVersion")
                    + " is not supported by this Gauntlet (reads 1.." + RunResult.SCHEMA_VERSION + ")");
        }
        try {
            RunResult r = MAPPER.treeToValue(tree, RunResult.class);
            for (OperationResult op : r.operations()) {
                if (op.name() == null || op.histogram() == null) {
                    throw new ResultFormatException(file + ": operation without name or histogram");
                }
            }
            return r;
        } catch (JsonProcessingException e) {
            throw new ResultFormatException(file + ": malformed result (" + e.getOriginalMessage() + ")");
        }
    }

    public static void write(RunResult result, Path file) throws IOException {
        byte[] json = MAPPER.writeValueAsBytes(result);
        AtomicFiles.write(file, json);
    }

    public static String toJson(RunResult result) {
        try {
            return MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

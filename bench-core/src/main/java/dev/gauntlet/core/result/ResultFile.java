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

    /**
     * The result in a file or run directory, checked: JSON, a Gauntlet result of a version this program reads, every
     * operation named and with a histogram.
     *
     * @throws ResultFormatException naming the file when it is none of these
     */
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
        return parse(tree, file.toString());
    }

    /**
     * A result kept as JSON text elsewhere than a file (a result store's copy of {@link #toJson}), checked as
     * {@link #read} checks a file.
     *
     * @param source where the text came from, to begin error messages: {@code gauntlet_results run 5f0c...}
     * @throws ResultFormatException naming {@code source} when the text is not a result this program reads
     */
    public static RunResult fromJson(String json, String source) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ResultFormatException(source + ": not JSON (" + e.getOriginalMessage() + ")");
        }
        return parse(tree, source);
    }

    private static RunResult parse(JsonNode tree, String source) {
        if (tree == null || !tree.isObject() || !tree.has("schemaVersion") || !tree.has("operations")) {
            throw new ResultFormatException(source + ": not a Gauntlet result (no schemaVersion/operations)");
        }
        int version = tree.get("schemaVersion").asInt(-1);
        if (version < 1 || version > RunResult.SCHEMA_VERSION) {
            throw new ResultFormatException(source + ": result schemaVersion " + tree.get("schemaVersion")
                    + " is not supported by this Gauntlet (reads 1.." + RunResult.SCHEMA_VERSION + ")");
        }
        try {
            RunResult r = MAPPER.treeToValue(tree, RunResult.class);
            for (OperationResult op : r.operations()) {
                if (op.name() == null || op.histogram() == null) {
                    throw new ResultFormatException(source + ": operation without name or histogram");
                }
            }
            return r;
        } catch (JsonProcessingException e) {
            throw new ResultFormatException(source + ": malformed result (" + e.getOriginalMessage() + ")");
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

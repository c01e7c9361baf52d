package dev.gauntlet.core.result;

/** Which program wrote a result: name, version and the git commit it was built from (or "unknown"). */
public record Tool(String name, String version, String gitCommit) {
}

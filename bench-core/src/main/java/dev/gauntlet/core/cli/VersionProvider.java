package dev.gauntlet.core.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the Gauntlet version and the commit it was built from. */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        var tool = Provenance.tool("gauntlet");
        return new String[] {"Gauntlet " + tool.version() + " (commit " + tool.gitCommit() + ")",
                "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")};
    }
}

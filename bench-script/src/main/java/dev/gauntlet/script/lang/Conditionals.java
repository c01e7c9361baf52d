package dev.gauntlet.script.lang;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Checks a script's {@code \if ... \endif} blocks as pgbench 15's {@code CheckConditional} does (with its
 * messages and its 1-based command numbers) and resolves where each {@code \if}, {@code \elif} and {@code \else}
 * goes, so that an interpreter never searches.
 */
final class Conditionals {

    /** An open block: the indexes of its {@code \if}, {@code \elif}s and {@code \else}, and whether it had an else. */
    private static final class Block {
        final List<Integer> branches = new ArrayList<>();
        boolean sawElse;
    }

    private Conditionals() {
    }

    /** The commands with their conditional jumps set; refuses unbalanced blocks with pgbench's message. */
    static List<Command> resolve(String scriptName, List<Command> commands) {
        int size = commands.size();
        int[] nextBranch = new int[size];
        int[] endIf = new int[size];
        Deque<Block> open = new ArrayDeque<>();
        for (int i = 0; i < size; i++) {
            Command c = commands.get(i);
            if (c instanceof Command.If) {
                Block block = new Block();
                block.branches.add(i);
                open.push(block);
            } else if (c instanceof Command.Elif) {
                Block block = innermost(open, scriptName, i, "\\elif without matching \\if");
                if (block.sawElse) {
                    throw ScriptFileException.conditionError(scriptName, i + 1, "\\elif after \\else");
                }
                block.branches.add(i);
            } else if (c instanceof Command.Else) {
                Block block = innermost(open, scriptName, i, "\\else without matching \\if");
                if (block.sawElse) {
                    throw ScriptFileException.conditionError(scriptName, i + 1, "\\else after \\else");
                }
                block.sawElse = true;
                block.branches.add(i);
            } else if (c instanceof Command.Endif) {
                Block block = innermost(open, scriptName, i, "\\endif without matching \\if");
                open.pop();
                List<Integer> branches = block.branches;
                for (int k = 0; k < branches.size(); k++) {
                    int b = branches.get(k);
                    nextBranch[b] = k + 1 < branches.size() ? branches.get(k + 1) : i;
                    endIf[b] = i;
                }
            }
        }
        if (!open.isEmpty()) {
            throw ScriptFileException.conditionError(scriptName, size + 1, "\\if without matching \\endif");
        }
        List<Command> resolved = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Command c = commands.get(i);
            if (c instanceof Command.If f) {
                c = new Command.If(f.line(), f.display(), f.name(), f.condition(), nextBranch[i], endIf[i]);
            } else if (c instanceof Command.Elif f) {
                c = new Command.Elif(f.line(), f.display(), f.name(), f.condition(), nextBranch[i], endIf[i]);
            } else if (c instanceof Command.Else e) {
                c = new Command.Else(e.line(), e.display(), e.name(), endIf[i]);
            }
            resolved.add(c);
        }
        return resolved;
    }

    private static Block innermost(Deque<Block> open, String scriptName, int index, String message) {
        if (open.isEmpty()) {
            throw ScriptFileException.conditionError(scriptName, index + 1, message);
        }
        return open.peek();
    }
}

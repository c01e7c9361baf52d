package dev.gauntlet.core.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A GitHub-flavoured Markdown table whose source is padded into columns, so report.md reads as well in a
 * terminal as rendered. Cells are escaped: a pipe or newline in an error message cannot break the table.
 */
public final class MarkdownTable {

    enum Align { LEFT, RIGHT }

    private final List<String> headers = new ArrayList<>();
    private final List<Align> aligns = new ArrayList<>();
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable column(String header, Align align) {
        headers.add(header == null ? "" : header);
        aligns.add(align);
        return this;
    }

    public MarkdownTable left(String... headerNames) {
        for (String h : headerNames) {
            column(h, Align.LEFT);
        }
        return this;
    }

    public MarkdownTable right(String... headerNames) {
        for (String h : headerNames) {
            column(h, Align.RIGHT);
        }
        return this;
    }

    public MarkdownTable row(String... cells) {
        return row(Arrays.asList(cells));
    }

    public MarkdownTable row(List<String> cells) {
        if (cells.size() != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, table has " + headers.size());
        }
        rows.add(cells.stream().map(c -> c == null ? "" : c).toList());
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table as Markdown, its cells escaped and padded into columns. */
    public String render() {
        List<String> headers = this.headers.stream().map(MarkdownTable::escape).toList();
        List<List<String>> rows = this.rows.stream().map(r -> r.stream().map(MarkdownTable::escape).toList()).toList();
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = Math.max(3, headers.get(c).length());
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, widths);
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            out.append(' ').append("-".repeat(widths[c] - 1)).append(aligns.get(c) == Align.RIGHT ? ':' : '-')
                    .append(" |");
        }
        out.append('\n');
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            out.append(' ').append(aligns.get(c) == Align.RIGHT ? pad + cell : cell + pad).append(" |");
        }
        out.append('\n');
    }

    /** The headers as given, unescaped (for renderings other than Markdown, such as {@link HtmlTable}). */
    List<String> headers() {
        return List.copyOf(headers);
    }

    boolean rightAligned(int column) {
        return aligns.get(column) == Align.RIGHT;
    }

    /** The rows as given, unescaped. */
    List<List<String>> rows() {
        return List.copyOf(rows);
    }

    static String escape(String cell) {
        String s = cell == null ? "" : cell;
        return s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ').replace("|", "\\|");
    }
}

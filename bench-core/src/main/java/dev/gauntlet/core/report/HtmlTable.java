package dev.gauntlet.core.report;

import java.util.List;

/**
 * A {@link MarkdownTable} as an HTML table, for the dashboard: the same headers, alignment and cells as report.md
 * shows, so the two never disagree. Every header and cell is escaped, so a note or an error message holding markup
 * is shown as text, never run.
 */
final class HtmlTable {

    private HtmlTable() {
    }

    static String of(MarkdownTable table) {
        List<String> headers = table.headers();
        StringBuilder html = new StringBuilder("<table>\n<thead><tr>");
        for (int c = 0; c < headers.size(); c++) {
            html.append("<th").append(align(table, c)).append('>').append(escape(headers.get(c))).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            for (int c = 0; c < row.size(); c++) {
                html.append("<td").append(align(table, c)).append('>').append(escape(row.get(c))).append("</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</tbody>\n</table>\n").toString();
    }

    private static String align(MarkdownTable table, int column) {
        return table.rightAligned(column) ? " class=\"num\"" : "";
    }

    /** Text as HTML text or attribute value: {@code & < > " '} escaped. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }
}

package dev.gauntlet.core.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import org.knowm.xchart.internal.chartpart.Annotation;

/**
 * A stretch of the run as a shaded band across a chart's plot, from its start to its end in seconds, with its name
 * near the top: where each figure of a timeline falls (warm-up, baseline, recovery) and when a disruption was in force
 * is seen, not looked up.
 *
 * <p>A {@linkplain #phase phase} fills its stretch and is named only when the name fits inside it. A
 * {@linkplain #disruption disruption} is at least {@value #MIN_DISRUPTION_WIDTH} pixels wide, so an instant one (a
 * kill) still shows as a line, and its name runs beside the band on a row of its own below the phases' names.
 */
final class TimelineBand extends Annotation {

    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final int MIN_DISRUPTION_WIDTH = 2;
    private static final Color DISRUPTION_FILL = new Color(200, 30, 30, 60);
    private static final Color DISRUPTION_LABEL = new Color(150, 20, 20);

    private final String name;
    private final double start;
    private final double end;
    private final Color fill;
    private final Color labelColour;
    /** 0: the phases' row at the top; 1, 2, ...: rows below it. */
    private final int labelRow;
    private final boolean disruption;

    private TimelineBand(String name, double start, double end, Color fill, Color labelColour, int labelRow,
                         boolean disruption) {
        super(false);
        this.name = name;
        this.start = start;
        this.end = end;
        this.fill = fill;
        this.labelColour = labelColour;
        this.labelRow = labelRow;
        this.disruption = disruption;
    }

    static TimelineBand phase(String name, double start, double end, Color fill) {
        return new TimelineBand(name, start, end, fill, Color.DARK_GRAY, 0, false);
    }

    /** A disruption's span, labelled on row {@code labelRow} (1 and up) so neighbouring disruptions stay legible. */
    static TimelineBand disruption(DisruptionSpan span, int labelRow) {
        String label = span.name() + (span.happened() ? "" : " (not started)")
                + (span.recovery() == null ? "" : " — " + span.recoveryText());
        return new TimelineBand(label, span.start(), span.end(), DISRUPTION_FILL, DISRUPTION_LABEL, labelRow, true);
    }

    @Override
    public void paint(Graphics2D g) {
        if (!isVisible) {
            return;
        }
        int plotLeft = getXAxisScreenValueForMin();
        int plotRight = getXAxisScreenValueForMax();
        int from = getXAxisScreenValue(start);
        int to = getXAxisScreenValue(end);
        if (to < plotLeft || from > plotRight) {
            return;
        }
        int left = Math.max(from, plotLeft);
        int right = Math.min(to, plotRight);
        if (disruption && right - left < MIN_DISRUPTION_WIDTH) {
            left = Math.min(left, plotRight - MIN_DISRUPTION_WIDTH);
            right = left + MIN_DISRUPTION_WIDTH;
        }
        int top = Math.min(getYAxisScreenValueForMax(), getYAxisScreenValueForMin());
        int bottom = Math.max(getYAxisScreenValueForMax(), getYAxisScreenValueForMin());
        if (right <= left) {
            return;
        }
        Color colour = g.getColor();
        Font font = g.getFont();
        g.setColor(fill);
        g.fillRect(left, top, right - left, bottom - top);
        g.setFont(LABEL);
        g.setColor(labelColour);
        Rectangle2D text = g.getFontMetrics().getStringBounds(name, g);
        int baseline = top + (int) Math.ceil(text.getHeight()) * (labelRow + 1);
        if (!disruption && text.getWidth() + 6 <= right - left) {
            g.drawString(name, left + 3, baseline);
        } else if (disruption) {
            // Beside the band, kept inside the plot: right of it, or left of it near the plot's right edge.
            int width = (int) Math.ceil(text.getWidth());
            int x = right + 3 + width <= plotRight ? right + 3 : left - 3 - width;
            g.drawString(name, Math.max(plotLeft + 3, x), baseline);
        }
        g.setFont(font);
        g.setColor(colour);
        bounds = new Rectangle2D.Double(left, top, right - left, bottom - top);
    }
}

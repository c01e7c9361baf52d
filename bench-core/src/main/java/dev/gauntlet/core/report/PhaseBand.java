package dev.gauntlet.core.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import org.knowm.xchart.internal.chartpart.Annotation;

/**
 * A phase of the run as a shaded band across a chart's plot, from its start to its end in seconds, with its name at
 * the top: where each figure of a timeline falls (warm-up, baseline, a fault, recovery) is seen, not looked up.
 */
final class PhaseBand extends Annotation {

    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private final String name;
    private final double start;
    private final double end;
    private final Color fill;

    PhaseBand(String name, double start, double end, Color fill) {
        super(false);
        this.name = name;
        this.start = start;
        this.end = end;
        this.fill = fill;
    }

    @Override
    public void paint(Graphics2D g) {
        if (!isVisible) {
            return;
        }
        int left = Math.max(getXAxisScreenValue(start), getXAxisScreenValueForMin());
        int right = Math.min(getXAxisScreenValue(end), getXAxisScreenValueForMax());
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
        g.setColor(Color.DARK_GRAY);
        Rectangle2D text = g.getFontMetrics().getStringBounds(name, g);
        if (text.getWidth() + 6 <= right - left) {
            g.drawString(name, left + 3, top + (int) Math.ceil(text.getHeight()));
        }
        g.setFont(font);
        g.setColor(colour);
        bounds = new Rectangle2D.Double(left, top, right - left, bottom - top);
    }
}

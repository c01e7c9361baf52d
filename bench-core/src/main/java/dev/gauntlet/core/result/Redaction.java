package dev.gauntlet.core.result;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Removes secrets from anything that may be printed or stored: URLs and command lines. Writers redact before
 * storing, and reports redact again, because a report is often pasted into a ticket.
 */
public final class Redaction {

    public static final String MASK = "****";
    private static final Pattern URL_SECRET =
            Pattern.compile("(?i)((?:password|sslpassword|pass|pwd|secret)=)[^&;\\s]*");
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]+:)[^@/\\s]*@");

    private Redaction() {
    }

    public static String url(String url) {
        if (url == null) {
            return null;
        }
        String s = URL_SECRET.matcher(url).replaceAll("$1" + MASK);
        return USERINFO.matcher(s).replaceAll("$1" + MASK + "@");
    }

    /** The arguments with the value of every password option masked, and URLs redacted. */
    public static List<String> arguments(List<String> args) {
        List<String> out = new ArrayList<>();
        boolean maskNext = false;
        for (String a : args) {
            if (maskNext) {
                out.add(MASK);
                maskNext = false;
            } else if (a.matches("(?i)--?[a-z-]*password")) {
                out.add(a);
                maskNext = true;
            } else if (a.matches("(?i)--?[a-z-]*password=.*")) {
                out.add(a.substring(0, a.indexOf('=') + 1) + MASK);
            } else {
                out.add(url(a));
            }
        }
        return out;
    }
}

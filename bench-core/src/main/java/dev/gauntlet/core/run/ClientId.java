package dev.gauntlet.core.run;

/**
 * Which client a script is for: its role, its index within the role (0-based) of how many the role has, and its
 * index among all the run's clients (which seeds its random generator).
 */
public record ClientId(String role, int index, int roleClients, int runIndex) {
}

/** The machine the driver runs on: programs found on it, free loopback ports. Depends on nothing else in Gauntlet. */
package dev.gauntlet.core.host;

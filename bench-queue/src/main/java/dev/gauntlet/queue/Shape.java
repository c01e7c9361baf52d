package dev.gauntlet.queue;

import java.time.Duration;

/** What both modes' messages and polls look like: batch sizes, payload, and a reader's wait after an empty poll. */
record Shape(int writeBatch, int readBatch, int payload, Duration pollInterval) {
}

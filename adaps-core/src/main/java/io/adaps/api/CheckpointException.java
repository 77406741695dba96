package io.adaps.api;

/**
 * A checkpoint could not be written, or a checkpoint to restore from is not usable: missing,
 * truncated, corrupted, from a newer format, or of other tables. The message names the file or
 * the table. A refused restore starts no node; a failed checkpoint leaves the previous complete
 * one in its directory as it was.
 */
public class CheckpointException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}

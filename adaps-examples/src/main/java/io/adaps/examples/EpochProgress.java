package io.adaps.examples;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a node's training stands, as the examples save it with every checkpoint and read it back
 * on resuming ({@link Checkpointing}): in epoch {@code epoch}, the first {@code step} of its
 * {@code steps} steps ({@link SteppedEpoch}) are trained, and in them this node trained
 * {@code done} entries ({@code mf}) or words ({@code w2v}). No step: the epoch has not begun (the
 * ones before are trained and reported); all steps: the epoch is trained but not yet reported.
 *
 * <p>Saved as text, {@code epoch=3 step=4 of=12 done=90000}, which shows in a checkpoint's state
 * files as it is.
 *
 * @param epoch from 1
 * @param step  steps trained, {@code 0..steps}
 * @param steps steps per epoch
 * @param done  entries or words this node trained in the epoch's first {@code step} steps
 */
public record EpochProgress(int epoch, int step, int steps, long done) {
    private static final Pattern TEXT = Pattern.compile(
            "epoch=(\\d{1,9}) step=(\\d{1,9}) of=(\\d{1,9}) done=(\\d{1,18})");
    /** The most of a refused state a message shows. */
    private static final int SHOWN = 80;

    /**
     * Checks the position.
     *
     * @throws IllegalArgumentException if it is out of range
     */
    public EpochProgress {
        if (epoch < 1 || step < 0 || step > steps || done < 0) {
            throw new IllegalArgumentException("epoch=" + epoch + ", step=" + step + ", steps=" + steps + ", done="
                    + done + " (expected epoch >= 1, 0 <= step <= steps and done >= 0)");
        }
    }

    /** The start of epoch {@code epoch}: nothing of it trained yet. */
    public static EpochProgress start(int epoch, int steps) {
        return new EpochProgress(epoch, 0, steps, 0);
    }

    /** The same epoch with its first {@code step} steps and {@code done} entries trained. */
    public EpochProgress after(int step, long done) {
        return new EpochProgress(epoch, step, steps, done);
    }

    /** Whether some of the epoch is trained: a run resumed here continues mid-epoch. */
    public boolean begun() {
        return step > 0;
    }

    /** What a checkpoint saves. */
    public byte[] toBytes() {
        return String.format(Locale.ROOT, "epoch=%d step=%d of=%d done=%d", epoch, step, steps, done)
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The progress {@code saved} by {@link #toBytes()}.
     *
     * @throws IllegalArgumentException showing the saved state, if it is not a progress
     */
    public static EpochProgress parse(byte[] saved) {
        String text = new String(saved, StandardCharsets.UTF_8);
        Matcher matcher = TEXT.matcher(text);
        if (matcher.matches()) {
            try {
                return new EpochProgress(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                        Integer.parseInt(matcher.group(3)), Long.parseLong(matcher.group(4)));
            } catch (IllegalArgumentException outOfRange) {
                // Refused below with the text.
            }
        }
        String shown = text.length() > SHOWN ? text.substring(0, SHOWN) + "..." : text;
        throw new IllegalArgumentException("progress '" + shown + "' (expected 'epoch=E step=K of=N done=D' with "
                + "E >= 1 and K <= N)");
    }
}

package io.adaps.api;

import java.util.Collection;

/**
 * The parameter operations of one training thread. A {@link Worker} addresses parameters by global
 * key; a {@link TableView} by row id within one table. Everything else is the same.
 *
 * <h2>Buffers</h2>
 * Values travel in caller-provided {@code float[]} buffers, packed: the value of the {@code j}-th
 * id starts where the previous one ended, each taking its table's value length. The two-argument
 * forms require the buffer to be exactly that long; the offset forms require room for it from the
 * offset. Nothing is allocated per call.
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>{@code pull} copies current values; each value comes from one consistent state of its
 *       parameter (never torn). Different ids are read one after another, not atomically together,
 *       and not necessarily in their order: rows held on this node are read during the call, the
 *       others when their owners answer (an id named twice may be read once here and once
 *       remotely, if its row arrives meanwhile).</li>
 *   <li>{@code push} hands an update to the table's {@link UpdateRule}, applied where the parameter
 *       lives; concurrent pushes to one parameter never lose an update.</li>
 *   <li>{@code set} replaces values and leaves update-rule state (e.g. Adagrad's accumulator) alone.</li>
 *   <li>The {@code ...Async} forms return a ticket for {@link Worker#waitFor(long)} /
 *       {@link Worker#waitAll()}; until then the caller must not touch the value buffer (the
 *       ids are read before the call returns and may be reused at once). Parts that are local to
 *       this node complete before the call returns.</li>
 *   <li>{@code localize} moves the parameters of the ids to this node, so that later accesses
 *       from this node are local memory operations; accesses from other nodes follow them. It
 *       never changes values (update-rule state such as Adagrad's accumulator moves along). Under
 *       {@link Technique#STATIC} it moves nothing. The blocking form returns, and the ticket of
 *       {@code localizeAsync} completes, once every id this call asked for has arrived here (an
 *       id that arrived and was at once claimed by another node counts as arrived); ids already
 *       held here, or already on their way here for an earlier call, are not waited for.</li>
 *   <li>{@code intent} declares that this worker will access the ids during the clocks
 *       {@code [fromClock, toClock)} of its {@link Worker#clock() clock}. It is a hint: it never
 *       changes values, and the node uses it to place parameters ahead of time.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Every call checks all its arguments before it changes anything: an unknown id, a buffer of the
 * wrong length, a bad range or clock interval throws {@link IllegalArgumentException} (null arrays
 * {@link NullPointerException}) naming the offending value, and no parameter has changed. Calls
 * after the node is closed, or from a thread other than the worker's own, throw
 * {@link IllegalStateException}.
 */
public interface ParameterAccess {
    /** Copies the values of {@code ids} into {@code dst}, which must be exactly as long as they are. */
    void pull(long[] ids, float[] dst);

    /** Copies the values of {@code ids[idOffset .. idOffset + idCount)} into {@code dst} from {@code dstOffset}. */
    void pull(long[] ids, int idOffset, int idCount, float[] dst, int dstOffset);

    /** Copies the value of {@code id} into {@code dst} from {@code dstOffset}. */
    void pull(long id, float[] dst, int dstOffset);

    /** Pushes {@code updates}, exactly as long as the values of {@code ids}, through the update rule. */
    void push(long[] ids, float[] updates);

    /** Pushes the updates from {@code updatesOffset} for {@code ids[idOffset .. idOffset + idCount)}. */
    void push(long[] ids, int idOffset, int idCount, float[] updates, int updatesOffset);

    /** Pushes the update at {@code update[updateOffset ..]} for {@code id}. */
    void push(long id, float[] update, int updateOffset);

    /** Replaces the values of {@code ids} with {@code values}, exactly as long as they are. */
    void set(long[] ids, float[] values);

    /** Replaces the values of {@code ids[idOffset .. idOffset + idCount)} with those from {@code valuesOffset}. */
    void set(long[] ids, int idOffset, int idCount, float[] values, int valuesOffset);

    /** Replaces the value of {@code id} with {@code value[valueOffset ..]}. */
    void set(long id, float[] value, int valueOffset);

    /** Starts a pull; see {@link #pull(long[], int, int, float[], int)}. Returns a ticket. */
    long pullAsync(long[] ids, int idOffset, int idCount, float[] dst, int dstOffset);

    /** Starts a push; see {@link #push(long[], int, int, float[], int)}. Returns a ticket. */
    long pushAsync(long[] ids, int idOffset, int idCount, float[] updates, int updatesOffset);

    /** Starts a set; see {@link #set(long[], int, int, float[], int)}. Returns a ticket. */
    long setAsync(long[] ids, int idOffset, int idCount, float[] values, int valuesOffset);

    /** Moves the parameters of {@code ids} to this node and waits for them; see the class comment. */
    void localize(long[] ids);

    /** Moves the parameters of {@code ids[idOffset .. idOffset + idCount)} to this node and waits for them. */
    void localize(long[] ids, int idOffset, int idCount);

    /** Starts moving the parameters of {@code ids[idOffset .. idOffset + idCount)} here. Returns a ticket. */
    long localizeAsync(long[] ids, int idOffset, int idCount);

    /** Declares access to {@code ids} during clocks {@code [fromClock, toClock)}. */
    void intent(long[] ids, long fromClock, long toClock);

    /** Declares access to {@code ids[idOffset .. idOffset + idCount)} during clocks {@code [fromClock, toClock)}. */
    void intent(long[] ids, int idOffset, int idCount, long fromClock, long toClock);

    /** Declares access to {@code id} during clocks {@code [fromClock, toClock)}. */
    void intent(long id, long fromClock, long toClock);

    /**
     * Declares access to the ids of a collection during clocks {@code [fromClock, toClock)}. A
     * convenience: it copies the ids into an array first, so hot loops should use the array forms.
     */
    void intent(Collection<Long> ids, long fromClock, long toClock);
}

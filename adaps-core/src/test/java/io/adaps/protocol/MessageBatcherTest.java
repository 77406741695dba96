package io.adaps.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MessageBatcherTest {
    private static final int MAX = 4 << 20;
    private static final int ENTRY = 1000;

    private static void push(MessageBatcher batcher, int entries, int entryLength) {
        for (int i = 0; i < entries; i++) {
            batcher.entry(0, MessageType.PUSH, 0, 1, 7, 0, 0, entryLength);
        }
    }

    @Test
    void entriesWithTheSameHeaderShareAMessageUpToTheTargetSize() {
        MessageBatcher batcher = new MessageBatcher(1, MAX);
        int perMessage = (MessageBatcher.TARGET_MESSAGE_BYTES - Message.HEADER_LENGTH) / ENTRY;
        push(batcher, perMessage + 1, ENTRY);

        assertThat(batcher.messages(0)).isEqualTo(2);
        assertThat(batcher.messageCount(0, 0)).isEqualTo(perMessage);
        assertThat(batcher.messageCount(0, 1)).isEqualTo(1);
        assertThat(batcher.messageLength(0, 0)).isLessThanOrEqualTo(MessageBatcher.TARGET_MESSAGE_BYTES);
    }

    @Test
    void anEntryLongerThanTheTargetGoesAloneInAMessageUpToTheMaximum() {
        MessageBatcher batcher = new MessageBatcher(1, MAX);
        push(batcher, 1, ENTRY);
        push(batcher, 2, 1 << 20);

        assertThat(batcher.messages(0)).isEqualTo(3);
        assertThat(batcher.messageCount(0, 1)).isEqualTo(1);
        assertThat(batcher.messageLength(0, 2)).isEqualTo(Message.HEADER_LENGTH + (1 << 20));
    }

    @Test
    void aMaximumBelowTheTargetBoundsEveryMessage() {
        int max = 64 * 1024;
        MessageBatcher batcher = new MessageBatcher(1, max);
        push(batcher, 200, ENTRY);

        for (int m = 0; m < batcher.messages(0); m++) {
            assertThat(batcher.messageLength(0, m)).isLessThanOrEqualTo(max);
        }
        assertThat(batcher.messages(0)).isEqualTo(4);
    }

    @Test
    void aPullIsSplitSoThatEachAnswerStaysWithinTheTarget() {
        MessageBatcher batcher = new MessageBatcher(1, MAX);
        for (int i = 0; i < 1000; i++) {
            batcher.entry(0, MessageType.PULL, 0, 1, 7, 0, 0, Message.ROW_ENTRY, 1024);
        }

        // The answer's header takes its place in the target too.
        int perMessage = MessageBatcher.TARGET_MESSAGE_BYTES / 1024 - 1;
        assertThat(batcher.messageCount(0, 0)).isEqualTo(perMessage);
        assertThat(batcher.messages(0)).isEqualTo((1000 + perMessage - 1) / perMessage);
    }
}

package io.adaps.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.adaps.protocol.MessageType;

/** Which messages answer each operation, and which operations carry values: kept as data, checked whole. */
class OperationTest {
    private static final Map<Operation, Set<MessageType>> ANSWERS = Map.of(
            Operation.PULL, EnumSet.of(MessageType.PULL_REPLY),
            Operation.PUSH, EnumSet.of(MessageType.ACK),
            Operation.SET, EnumSet.of(MessageType.ACK),
            Operation.LOCALIZE, EnumSet.of(MessageType.ACK, MessageType.HANDOVER),
            Operation.SYNC, EnumSet.of(MessageType.REFRESHED),
            Operation.REFRESH, EnumSet.of(MessageType.REFRESHED, MessageType.UNCHANGED));

    @Test
    void eachOperationIsAnsweredByItsAnswerTypesAndNoOther() {
        for (Operation operation : Operation.values()) {
            for (MessageType type : MessageType.values()) {
                assertThat(operation.isAnsweredBy(type)).as("%s answered by %s", operation, type)
                        .isEqualTo(ANSWERS.get(operation).contains(type));
            }
            assertThat(ANSWERS.get(operation)).as("the type that bounds a request's answers")
                    .contains(operation.answer);
        }
    }

    @Test
    void updatesReplacementsAndDeltasCarryValues() {
        for (Operation operation : Operation.values()) {
            assertThat(operation.carriesValues()).as(operation.name())
                    .isEqualTo(EnumSet.of(Operation.PUSH, Operation.SET, Operation.SYNC).contains(operation));
        }
    }
}

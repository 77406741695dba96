package io.adaps.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class AwaitTest {
    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void aConditionThatHoldsIsCheckedOnce() throws InterruptedException {
        Await.until("true", Duration.ofSeconds(1), () -> calls.incrementAndGet() > 0);

        assertThat(calls).hasValue(1);
    }

    @Test
    void pollsUntilTheConditionHolds() throws InterruptedException {
        Await.until("the fifth call", Duration.ofSeconds(10), () -> calls.incrementAndGet() == 5);

        assertThat(calls).hasValue(5);
    }

    @Test
    void returnsTheFirstAcceptedValue() throws InterruptedException {
        int value = Await.until("a value of 3 or more", Duration.ofSeconds(10), calls::incrementAndGet, n -> n >= 3);

        assertThat(value).isEqualTo(3);
    }

    @Test
    void failsAfterTheTimeoutNamingWhatWasAwaited() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> Await.until("the impossible", Duration.ofMillis(200), () -> false))
                .isInstanceOf(AssertionError.class).hasMessage("the impossible: not within 200 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aValueThatIsNeverAcceptedIsReportedWithTheLastOne() {
        assertThatThrownBy(() -> Await.until("a negative count", Duration.ofSeconds(1), calls::incrementAndGet,
                n -> n < 0)).isInstanceOf(AssertionError.class)
                .hasMessage("a negative count: not within 1 s; the last value was " + calls.get());
        assertThat(calls.get()).as("polls in a second").isGreaterThan(5);
    }

    @Test
    void whatTheConditionThrowsEndsTheWaitAtOnce() {
        assertThatThrownBy(() -> Await.until("anything", Duration.ofSeconds(10), () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("broken");
        })).isInstanceOf(IllegalStateException.class).hasMessage("broken");
        assertThat(calls).hasValue(1);
    }

    @Test
    void refusesATimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> Await.until("x", Duration.ZERO, () -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout=PT0S (expected > 0)");
        assertThatThrownBy(() -> Await.until("x", Duration.ofMillis(-1), () -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout=PT-0.001S (expected > 0)");
    }
}

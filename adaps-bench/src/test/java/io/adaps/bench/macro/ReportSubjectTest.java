package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReportSubjectTest {
    @Test
    void theDefaultDataIsNamedByTheWorkloadAlone() {
        ReportSubject mf = ReportSubject.of(Workload.MF);

        assertThat(mf.heading()).isEqualTo("mf");
        assertThat(mf.regionName()).isEqualTo("mf");
        assertThat(mf.fileStem()).isEqualTo("mf");
    }

    @Test
    void labelledDataCarryTheLabelInEveryName() {
        ReportSubject corpus = new ReportSubject(Workload.W2V, "fortunes-en2");

        assertThat(corpus.heading()).isEqualTo("w2v (fortunes-en2)");
        assertThat(corpus.regionName()).isEqualTo("w2v:fortunes-en2");
        assertThat(corpus.fileStem()).isEqualTo("w2v-fortunes-en2");
    }

    @Test
    void labelsThatWouldBreakAMarkerOrAFileNameAreRejected() {
        for (String label : new String[] {"Tall", "a b", "-a", "a-", "a--b", "a:b", "a/b", "é"}) {
            assertThat(ReportSubject.isLabel(label)).as(label).isFalse();
            assertThatThrownBy(() -> new ReportSubject(Workload.MF, label))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("label=" + label + " (expected " + ReportSubject.LABEL_EXPECTED + ")");
        }
        assertThatThrownBy(() -> new ReportSubject(Workload.MF, null)).hasMessageStartingWith("label=null (expected");
        assertThatThrownBy(() -> new ReportSubject(null, "")).hasMessage("workload=null (expected a workload)");
    }
}

package io.adaps.bench.macro;

import static io.adaps.api.SamplingScheme.LOCAL;
import static io.adaps.api.SamplingScheme.NAIVE;
import static io.adaps.api.SamplingScheme.POOL;
import static io.adaps.api.SamplingScheme.PRELOCALIZE;
import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.FULL_REPLICATION;
import static io.adaps.api.Technique.RELOCATION_ONLY;
import static io.adaps.api.Technique.REPLICATION_ONLY;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.adaps.api.Technique;
import org.junit.jupiter.api.Test;

class RunMatrixTest {
    private static final List<Technique> ALL = List.of(STATIC, RELOCATION_ONLY, REPLICATION_ONLY, FULL_REPLICATION,
            ADAPTIVE);

    @Test
    void theDefaultMatrixRunsEachWorkloadsBaselineThenEveryNodeCount() {
        List<String> runs = RunMatrix.runs(List.of(Workload.MF, Workload.W2V), List.of(2, 4), ALL, List.of(), 2, false)
                .stream().map(run -> run.workload().subcommand() + " " + run.configuration()).toList();
        List<String> w2v = List.of("STATIC+NAIVE", "STATIC+LOCAL", "RELOCATION_ONLY+NAIVE", "REPLICATION_ONLY+NAIVE",
                "FULL_REPLICATION+NAIVE", "ADAPTIVE+NAIVE", "ADAPTIVE+PRELOCALIZE", "ADAPTIVE+POOL", "ADAPTIVE+LOCAL");
        assertThat(runs).hasSize(1 + 2 * 5 + 1 + 2 * 9);
        assertThat(runs.subList(0, 6)).containsExactly("mf 1 x 2, single node", "mf 2 x 1, STATIC",
                "mf 2 x 1, RELOCATION_ONLY", "mf 2 x 1, REPLICATION_ONLY", "mf 2 x 1, FULL_REPLICATION",
                "mf 2 x 1, ADAPTIVE");
        assertThat(runs.get(11)).isEqualTo("w2v 1 x 2, single node (NAIVE)");
        assertThat(runs.subList(12, 21)).isEqualTo(w2v.stream().map(label -> "w2v 2 x 1, " + label).toList());
        assertThat(runs.subList(21, 30)).isEqualTo(w2v.stream().map(label -> "w2v 4 x 1, " + label).toList());
    }

    @Test
    void theDefaultMatrixKeepsToTheChosenTechniques() {
        assertThat(RunMatrix.defaultSetups(List.of(ADAPTIVE, STATIC))).containsExactly(
                new RunMatrix.Setup(ADAPTIVE, NAIVE), new RunMatrix.Setup(ADAPTIVE, PRELOCALIZE),
                new RunMatrix.Setup(ADAPTIVE, POOL), new RunMatrix.Setup(ADAPTIVE, LOCAL),
                new RunMatrix.Setup(STATIC, NAIVE), new RunMatrix.Setup(STATIC, LOCAL));
    }

    @Test
    void namedSchemesRunWithEveryTechniqueAndTheBaselineCanBeLeftOut() {
        List<String> runs = RunMatrix.runs(List.of(Workload.W2V), List.of(2), List.of(STATIC, ADAPTIVE),
                List.of(NAIVE, LOCAL), 0, false).stream().map(RunConfig::label).toList();
        assertThat(runs).containsExactly("STATIC+NAIVE", "STATIC+LOCAL", "ADAPTIVE+NAIVE", "ADAPTIVE+LOCAL");
    }

    @Test
    void commandsLaunchClustersAndRunTheBaselineOnItsOwn() {
        RunConfig cluster = new RunConfig(Workload.W2V, 2, 1, ADAPTIVE, LOCAL);
        assertThat(cluster.command("bin/adaps-example", 5, false, 0, List.of("--dim=50"))).containsExactly(
                "bin/adaps-example", "launch", "--nodes", "2", "--", "w2v", "--threads", "1", "--epochs", "5",
                "--technique", "ADAPTIVE", "--sampling", "LOCAL", "--dim=50");
        RunConfig baseline = new RunConfig(Workload.MF, 1, 2, null, null);
        assertThat(baseline.command("bin/adaps-example", 3, false, 0, List.of())).containsExactly("bin/adaps-example",
                "mf", "--threads", "2", "--epochs", "3");
        assertThat(cluster.logName()).isEqualTo("w2v-2x1-adaptive-local");
        assertThat(new RunConfig(Workload.W2V, 1, 2, null, NAIVE).logName()).isEqualTo("w2v-1x2-single-node-naive");
        assertThat(new RunConfig(Workload.MF, 4, 1, RELOCATION_ONLY, null).logName())
                .isEqualTo("mf-4x1-relocation_only");
    }

    @Test
    void pinnedCoresLaunchEveryRunTheBaselineAsOneNode() {
        RunConfig cluster = new RunConfig(Workload.MF, 4, 1, STATIC, null);
        assertThat(cluster.command("bin/adaps-example", 2, true, 0, List.of("--entries=200000"))).containsExactly(
                "bin/adaps-example", "launch", "--nodes", "4", "--pin-cores", "--", "mf", "--threads", "1",
                "--epochs", "2", "--technique", "STATIC", "--entries=200000");
        RunConfig baseline = new RunConfig(Workload.W2V, 1, 1, null, NAIVE);
        assertThat(baseline.command("bin/adaps-example", 3, true, 0, List.of())).containsExactly("bin/adaps-example",
                "launch", "--nodes", "1", "--pin-cores", "--", "w2v", "--threads", "1", "--epochs", "3",
                "--sampling", "NAIVE");
    }

    @Test
    void aPinnedRunCanStartItsNodesOnAnotherProcessor() {
        RunConfig baseline = new RunConfig(Workload.MF, 1, 1, null, null);
        assertThat(baseline.command("bin/adaps-example", 2, true, 1, List.of())).containsExactly("bin/adaps-example",
                "launch", "--nodes", "1", "--pin-cores", "--first-core", "1", "--", "mf", "--threads", "1", "--epochs",
                "2");
    }

    @Test
    void partsAloneRunBeforeEachClusterOfTwoOrMoreNodes() {
        List<String> runs = RunMatrix.runs(List.of(Workload.MF, Workload.W2V), List.of(1, 2, 4), List.of(ADAPTIVE),
                        List.of(LOCAL), 1, true)
                .stream().map(run -> run.workload().subcommand() + " " + run.configuration()).toList();
        assertThat(runs).containsExactly("mf 1 x 1, single node", "mf 1 x 1, ADAPTIVE",
                "mf 2 x 1, parts alone, no communication", "mf 2 x 1, ADAPTIVE",
                "mf 4 x 1, parts alone, no communication", "mf 4 x 1, ADAPTIVE",
                "w2v 1 x 1, single node (NAIVE)", "w2v 1 x 1, ADAPTIVE+LOCAL",
                "w2v 2 x 1, parts alone, no communication", "w2v 2 x 1, ADAPTIVE+LOCAL",
                "w2v 4 x 1, parts alone, no communication", "w2v 4 x 1, ADAPTIVE+LOCAL");
    }

    @Test
    void evenTurnsRunTheMatrixInReverseSoThatDriftFallsOnEveryConfigurationAlike() {
        List<RunConfig> runs = RunMatrix.runs(List.of(Workload.MF), List.of(2), List.of(STATIC, ADAPTIVE), List.of(),
                1, true);
        assertThat(runs).hasSize(4);
        List<RunConfig> reversed = List.of(runs.get(3), runs.get(2), runs.get(1), runs.get(0));
        assertThat(RunMatrix.turn(runs, 1)).isEqualTo(runs);
        assertThat(RunMatrix.turn(runs, 2)).isEqualTo(reversed);
        assertThat(RunMatrix.turn(runs, 3)).isEqualTo(runs);
        assertThatThrownBy(() -> RunMatrix.turn(runs, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("turn=0 (expected >= 1)");
    }

    @Test
    void partsAloneLaunchSingleNodesWithoutATechnique() {
        RunConfig alone = RunConfig.alone(Workload.W2V, 2);
        assertThat(alone.command("bin/adaps-example", 3, true, 0, List.of("--dim=50"))).containsExactly(
                "bin/adaps-example", "launch", "--nodes", "2", "--pin-cores", "--alone", "--", "w2v", "--threads", "1",
                "--epochs", "3", "--sampling", "NAIVE", "--dim=50");
        assertThat(RunConfig.alone(Workload.MF, 4).command("bin/adaps-example", 2, false, 0, List.of()))
                .containsExactly("bin/adaps-example", "launch", "--nodes", "4", "--alone", "--", "mf", "--threads", "1",
                        "--epochs", "2");
        assertThat(alone.isBaseline()).isFalse();
        assertThat(alone.isReference()).isFalse();
        assertThat(alone.isHeadline()).isFalse();
        assertThat(new RunConfig(Workload.MF, 1, 1, null, null).isBaseline()).isTrue();
        assertThat(alone.logName()).isEqualTo("w2v-2x1-parts-alone-no-communication");
        assertThatThrownBy(() -> RunConfig.alone(Workload.MF, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("alone with technique=null, nodes=1 (expected no technique and nodes >= 2)");
        assertThatThrownBy(() -> new RunConfig(Workload.MF, 2, 1, STATIC, null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("alone with technique=STATIC, nodes=2 (expected no technique and nodes >= 2)");
    }

    @Test
    void aSamplingSchemeGoesWithSampledWorkloadsOnly() {
        assertThatThrownBy(() -> new RunConfig(Workload.MF, 2, 1, STATIC, NAIVE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sampling=NAIVE (expected none for workload mf)");
        assertThatThrownBy(() -> new RunConfig(Workload.W2V, 2, 1, STATIC, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sampling=null (expected a scheme for workload w2v)");
    }
}

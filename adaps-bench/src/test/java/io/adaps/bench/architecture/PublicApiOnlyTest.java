package io.adaps.bench.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The benchmarks measure AdaPS as applications use it: through what adaps-core exports (the API
 * and the transport SPI) and the examples. The exceptions are the microbenchmarks whose subject is
 * one internal component itself, each reaching only that component: the message codec
 * ({@code io.adaps.bench.codec}) and the intent tracker ({@code io.adaps.bench.intent}).
 */
@AnalyzeClasses(packages = "io.adaps.bench", importOptions = ImportOption.DoNotIncludeTests.class)
class PublicApiOnlyTest {

    @ArchTest
    static final ArchRule benchmarksUseOnlyTheExportedPackages = noClasses().that().resideInAPackage("io.adaps.bench..")
            .and().resideOutsideOfPackages("io.adaps.bench.codec..", "io.adaps.bench.intent..")
            .should().dependOnClassesThat(resideInAPackage("io.adaps..")
                    .and(resideOutsideOfPackages("io.adaps.bench..", "io.adaps.examples..", "io.adaps.api..",
                            "io.adaps.transport.netty..")));

    @ArchTest
    static final ArchRule theCodecBenchmarkReachesOnlyTheCodec = reachesOnly("io.adaps.bench.codec..",
            "io.adaps.protocol..");

    @ArchTest
    static final ArchRule theIntentBenchmarkReachesOnlyTheIntentTracker = reachesOnly("io.adaps.bench.intent..",
            "io.adaps.intent..");

    /** Classes of {@code benchmarks} use nothing of adaps-core but the API and {@code component}. */
    private static ArchRule reachesOnly(String benchmarks, String component) {
        return noClasses().that().resideInAPackage(benchmarks)
                .should().dependOnClassesThat(resideInAPackage("io.adaps..")
                        .and(resideOutsideOfPackages("io.adaps.bench..", "io.adaps.api..", component)));
    }
}

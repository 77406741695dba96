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
 * and the transport SPI) and the examples. The one exception is the codec microbenchmark
 * ({@code io.adaps.bench.codec}), whose subject is the internal message codec itself.
 */
@AnalyzeClasses(packages = "io.adaps.bench", importOptions = ImportOption.DoNotIncludeTests.class)
class PublicApiOnlyTest {

    @ArchTest
    static final ArchRule benchmarksUseOnlyTheExportedPackages = noClasses().that().resideInAPackage("io.adaps.bench..")
            .and().resideOutsideOfPackage("io.adaps.bench.codec..")
            .should().dependOnClassesThat(resideInAPackage("io.adaps..")
                    .and(resideOutsideOfPackages("io.adaps.bench..", "io.adaps.examples..", "io.adaps.api..",
                            "io.adaps.transport.netty..")));

    @ArchTest
    static final ArchRule theCodecBenchmarkReachesOnlyTheCodec = noClasses().that().resideInAPackage("io.adaps.bench.codec..")
            .should().dependOnClassesThat(resideInAPackage("io.adaps..")
                    .and(resideOutsideOfPackages("io.adaps.bench..", "io.adaps.api..", "io.adaps.protocol..")));
}

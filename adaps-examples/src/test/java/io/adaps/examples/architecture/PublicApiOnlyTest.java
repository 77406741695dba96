package io.adaps.examples.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The examples are applications: they use AdaPS only through what adaps-core exports (the API
 * and the transport SPI, {@code io.adaps.api..}), as any user's program must.
 */
@AnalyzeClasses(packages = "io.adaps.examples", importOptions = ImportOption.DoNotIncludeTests.class)
class PublicApiOnlyTest {

    @ArchTest
    static final ArchRule examplesUseOnlyTheExportedPackages = noClasses().that().resideInAPackage("io.adaps.examples..")
            .should().dependOnClassesThat(resideInAPackage("io.adaps..")
                    .and(resideOutsideOfPackages("io.adaps.examples..", "io.adaps.api..")));
}

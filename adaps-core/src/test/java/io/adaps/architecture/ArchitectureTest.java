package io.adaps.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The rooms of adaps-core and their one-way doors (see docs/architecture.md, "Packages"): the
 * public API depends on nothing internal, packages form no cycles, the role packages depend one
 * way (worker -> rpc -> relocation, placement -> context -> store, protocol, ...), and only the
 * node package, where the bootstrap wires the parts, knows the node.
 */
@AnalyzeClasses(packages = "io.adaps", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycles = slices().matching("io.adaps.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule apiDependsOnNothingInternal = classes().that().resideInAPackage("io.adaps.api..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.adaps.api..", "io.adaps.util..", "java..",
                    "javax.crypto..", "org.agrona..")
            .because("the API (with the transport SPI) is what applications and transports compile against; "
                    + "build() reaches the runtime through the NodeFactory service, and io.adaps.util is a leaf of "
                    + "argument checks and hashing (javax.crypto: the JDK's HMAC of the cluster secret)");

    @ArchTest
    static final ArchRule onlyTheBootstrapKnowsTheNode = noClasses().that().resideOutsideOfPackage("io.adaps.node..")
            .should().dependOnClassesThat().resideInAPackage("io.adaps.node..")
            .because("no part holds the node facade: the bootstrap hands each part what it uses");

    @ArchTest
    static final ArchRule rolesDependOneWay = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Node").definedBy("io.adaps.node..")
            .layer("Worker").definedBy("io.adaps.worker..")
            .layer("Checkpoint").definedBy("io.adaps.checkpoint..")
            .layer("Placement").definedBy("io.adaps.placement..")
            .layer("Rpc").definedBy("io.adaps.rpc..")
            .layer("Relocation").definedBy("io.adaps.relocation..")
            .layer("Sampling").definedBy("io.adaps.sampling..")
            .layer("Consistency").definedBy("io.adaps.consistency..")
            .layer("Context").definedBy("io.adaps.context..")
            .layer("Intent").definedBy("io.adaps.intent..")
            .layer("Store").definedBy("io.adaps.store..")
            .layer("Directory").definedBy("io.adaps.directory..")
            .layer("Protocol").definedBy("io.adaps.protocol..")
            .layer("Keys").definedBy("io.adaps.keys..")
            .whereLayer("Node").mayNotBeAccessedByAnyLayer()
            .whereLayer("Worker").mayOnlyBeAccessedByLayers("Node")
            .whereLayer("Checkpoint").mayOnlyBeAccessedByLayers("Node")
            .whereLayer("Placement").mayOnlyBeAccessedByLayers("Worker", "Node")
            .whereLayer("Rpc").mayOnlyBeAccessedByLayers("Placement", "Worker", "Node")
            .whereLayer("Relocation").mayOnlyBeAccessedByLayers("Rpc", "Placement", "Worker", "Node")
            .whereLayer("Sampling").mayOnlyBeAccessedByLayers("Placement", "Worker", "Node")
            .whereLayer("Consistency").mayOnlyBeAccessedByLayers("Placement", "Worker", "Node")
            .whereLayer("Context").mayOnlyBeAccessedByLayers("Consistency", "Relocation", "Rpc", "Placement", "Worker", "Node")
            .whereLayer("Intent").mayOnlyBeAccessedByLayers("Placement", "Worker", "Node")
            .whereLayer("Directory").mayOnlyBeAccessedByLayers("Context", "Relocation", "Rpc", "Placement", "Node")
            .whereLayer("Store").mayOnlyBeAccessedByLayers("Sampling", "Context", "Relocation", "Rpc", "Placement",
                    "Worker", "Checkpoint", "Node")
            .whereLayer("Protocol").mayOnlyBeAccessedByLayers("Consistency", "Context", "Relocation", "Rpc", "Placement", "Node")
            .whereLayer("Keys").mayOnlyBeAccessedByLayers("Context", "Relocation", "Rpc", "Placement", "Worker", "Node",
                    "Intent", "Sampling");

    @ArchTest
    static final ArchRule timeComesFromTheNodesClock = noClasses().that().resideOutsideOfPackages("io.adaps.node..",
                    "io.adaps.api..")
            .should().callMethod(System.class, "nanoTime")
            .because("timing decisions read the node's injectable clock (NodeContext.clock()), so that tests can "
                    + "drive them");
}

package io.adaps.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PropertyTest {
    private static final List<String> SETTINGS = List.of("adaps.seed", "adaps.size", "adaps.tries");

    /** The settings this JVM was started with, put aside so that they do not change these tests. */
    private final Map<String, String> saved = new HashMap<>();
    /** The cases {@link #shorterThanTen} checked, in order. */
    private final List<List<Integer>> checked = new ArrayList<>();

    @BeforeEach
    void clearSettings() {
        for (String setting : SETTINGS) {
            String value = System.clearProperty(setting);
            if (value != null) {
                saved.put(setting, value);
            }
        }
    }

    @AfterEach
    void restoreSettings() {
        SETTINGS.forEach(System::clearProperty);
        saved.forEach(System::setProperty);
    }

    @Test
    void aPassingPropertyRunsExactlyTheTriesEachFromItsOwnSeed() {
        // Random bytes, unlike numbers, have no favourite values: equal cases would mean equal seeds.
        List<String> cases = new ArrayList<>();
        Property.forAll(37, gen -> Arrays.toString(gen.bytes(8, 8)), cases::add);
        assertThat(cases).hasSize(37).doesNotHaveDuplicates();

        List<String> again = new ArrayList<>();
        Property.forAll(37, gen -> Arrays.toString(gen.bytes(8, 8)), again::add);
        assertThat(again).as("the same cases every run").isEqualTo(cases);
    }

    @Test
    void aFailureIsReportedWithItsSeedAndShrunkToTheBoundary() {
        AssertionError error = null;
        try {
            // Called from the test method itself, not a lambda: the report names its caller.
            Property.forAll(100, PropertyTest::list, this::shorterThanTen);
        } catch (AssertionError e) {
            error = e;
        }
        assertThat(error).as("the report").isNotNull();

        long seed = seedIn(error.getMessage());
        List<Integer> failing = firstFailing();
        assertThat(error.getMessage())
                .startsWith("PropertyTest#aFailureIsReportedWithItsSeedAndShrunkToTheBoundary failed on case "
                        + (checked.indexOf(failing) + 1) + " of 100, seed " + seed + "\n")
                .contains("Replay: -Dtest=PropertyTest#aFailureIsReportedWithItsSeedAndShrunkToTheBoundary"
                        + " -Dadaps.seed=" + seed + "\n")
                .contains("Shrunk to size 10 (every length capped at 10; passes at 9),"
                        + " replay adding -Dadaps.size=10:\n  " + failing.subList(0, 10) + "\n")
                .endsWith("As generated: " + failing);
        assertThat(error.getCause()).hasMessage("size " + failing.size());
        assertThat(error.getSuppressed()).singleElement().extracting(Throwable::getMessage).isEqualTo("size 10");
    }

    @Test
    void theSeedSettingReplaysOneCaseAndTheSizeSettingItsShrunkForm() {
        AssertionError error = catchThrowableOfType(AssertionError.class,
                () -> Property.forAll(100, PropertyTest::list, this::shorterThanTen));
        List<Integer> failing = firstFailing();

        System.setProperty("adaps.seed", Long.toString(seedIn(error.getMessage())));
        List<List<Integer>> replayed = new ArrayList<>();
        Property.forAll(100, PropertyTest::list, replayed::add);
        System.setProperty("adaps.size", "10");
        Property.forAll(100, PropertyTest::list, replayed::add);
        assertThat(replayed).containsExactly(failing, failing.subList(0, 10));
    }

    @Test
    void aCaseWithoutLengthsIsReportedAsDrawn() {
        List<Integer> cases = new ArrayList<>();
        AssertionError error = catchThrowableOfType(AssertionError.class, () -> Property.forAll(100, Gen::ints, x -> {
            cases.add(x);
            assertThat(x).isNotNegative();
        }));
        int failing = cases.stream().filter(x -> x < 0).findFirst().orElseThrow();
        assertThat(error).hasMessageEndingWith("\nThe case (no lengths to shrink): " + failing);
        assertThat(cases).as("nothing to shrink, so not tried again").hasSize(cases.indexOf(failing) + 1);
    }

    @Test
    void theTriesSettingScalesTheNumberOfCases() {
        System.setProperty("adaps.tries", "2.5");
        List<Long> cases = new ArrayList<>();
        Property.forAll(10, Gen::longs, cases::add);
        assertThat(cases).hasSize(25);
    }

    @Test
    void aSmallerSizeCutsCollectionsToPrefixesAndKeepsTheOtherDraws() {
        for (long seed = 0; seed < 100; seed++) {
            Gen full = new Gen(seed, Gen.UNBOUNDED);
            Gen small = new Gen(seed, 3);
            List<Integer> fullList = full.list(0, 20, Gen::ints);
            List<Integer> smallList = small.list(0, 20, Gen::ints);
            assertThat(smallList).isEqualTo(fullList.subList(0, Math.min(3, fullList.size())));
            assertThat(small.bytes(5, 9)).containsExactly(Arrays.copyOf(full.bytes(5, 9), 5));
            assertThat(small.longs()).isEqualTo(full.longs());
            assertThat(small.sized(200)).isEqualTo(3);
            assertThat(full.sized(200)).isEqualTo(200);
            assertThat(full.largestLength()).isEqualTo(200);
        }
    }

    @Test
    void drawsStayInTheirRangesAndReachTheirEdges() {
        Gen gen = new Gen(1, Gen.UNBOUNDED);
        Set<Integer> seen = new HashSet<>();
        Set<Long> extremes = new HashSet<>();
        boolean zero = false;
        for (int i = 0; i < 10_000; i++) {
            seen.add(gen.intIn(1, 40));
            long any = gen.longs();
            if (any == Long.MIN_VALUE || any == Long.MAX_VALUE) {
                extremes.add(any);
            }
            double d = gen.doubleIn(-4, 4);
            assertThat(d).isBetween(-4.0, 4.0);
            zero |= d == 0;
            assertThat(gen.intIn(-3, -3)).isEqualTo(-3);
        }
        assertThat(seen).hasSize(40).allSatisfy(x -> assertThat(x).isBetween(1, 40));
        assertThat(extremes).containsExactlyInAnyOrder(Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(zero).isTrue();
    }

    @Test
    void weightedIndexesFollowTheirWeights() {
        Gen gen = new Gen(2, Gen.UNBOUNDED);
        int[] counts = new int[3];
        for (int i = 0; i < 10_000; i++) {
            counts[gen.weightedIndex(1, 0, 3)]++;
        }
        assertThat(counts[1]).isZero();
        assertThat(counts[2]).isBetween(3 * counts[0] - 800, 3 * counts[0] + 800);
    }

    /** Lists of up to 50 ints, of which {@link #shorterThanTen} fails the longer half or so. */
    private static List<Integer> list(Gen gen) {
        return gen.list(0, 50, Gen::ints);
    }

    private void shorterThanTen(List<Integer> list) {
        checked.add(list);
        if (list.size() >= 10) {
            throw new AssertionError("size " + list.size());
        }
    }

    /** The first case that failed: shrinking only checks cases after it. */
    private List<Integer> firstFailing() {
        return checked.stream().filter(list -> list.size() >= 10).findFirst().orElseThrow();
    }

    private static long seedIn(String report) {
        Matcher matcher = Pattern.compile("-Dadaps\\.seed=(-?\\d+)").matcher(report);
        assertThat(matcher.find()).as("a replay hint in %s", report).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}

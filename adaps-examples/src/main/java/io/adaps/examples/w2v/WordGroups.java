package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The quantitative check of the {@code w2v} example that needs no download: groups of words that
 * belong together and all occur in the Europarl corpus (each at least 5 times; found by counting
 * the corpus's words, see {@code WordGroupsTest}), and a score of how close each word of a group
 * lies to the others of its group.
 *
 * <p>The groups are the month names in six of the corpus's languages, number words in four, and
 * the English names of member states and of nationalities. Words that several languages share
 * ("april", "september") are in each of their groups. Ambiguous words are left out: "one" and
 * "un" (also pronoun and article), "dos" (also Portuguese "of the"), and "nine" and "neun", which occur fewer than 5 times.
 *
 * <p>The score is the mean, over every ordered pair {@code (q, w)} of two words of a group that are
 * both in the vocabulary, of {@link Embeddings#percentile}: the fraction of the vocabulary's words
 * outside the group that are farther from {@code q} (by cosine) than {@code w} is. That is the
 * probability that a group member is nearer to {@code q} than a random outsider (the area under
 * the ROC curve of "is in q's group" ranked by similarity to q): about 0.5 for random vectors, 1
 * when every group's words are nearer to each other than to any other word.
 */
final class WordGroups {
    /** The groups. */
    static final List<List<String>> GROUPS = List.of(
            List.of("january", "february", "march", "april", "may", "june", "july", "august", "september",
                    "october", "november", "december"),
            List.of("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                    "novembre", "décembre"),
            List.of("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
                    "november", "dezember"),
            List.of("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                    "octubre", "noviembre", "diciembre"),
            List.of("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
                    "ottobre", "novembre", "dicembre"),
            List.of("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
                    "oktober", "november", "december"),
            List.of("two", "three", "four", "five", "six", "seven", "eight", "ten"),
            List.of("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"),
            List.of("zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "zehn"),
            List.of("tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"),
            List.of("germany", "france", "italy", "spain", "portugal", "greece", "austria", "sweden", "finland",
                    "denmark", "ireland", "belgium", "netherlands", "luxembourg"),
            List.of("french", "german", "italian", "spanish", "portuguese", "greek", "swedish", "danish", "dutch",
                    "finnish", "british", "irish"));

    private final List<int[]> groups;
    private final int words;

    /** The groups' words that are in {@code vocabulary}, as ids; groups left with fewer than two are dropped. */
    WordGroups(Vocabulary vocabulary) {
        checkNotNull(vocabulary, "vocabulary");
        List<int[]> present = new ArrayList<>();
        int count = 0;
        for (List<String> group : GROUPS) {
            int[] ids = group.stream().mapToInt(vocabulary::id).filter(id -> id >= 0).toArray();
            if (ids.length >= 2) {
                present.add(ids);
                count += ids.length;
            }
        }
        this.groups = List.copyOf(present);
        this.words = count;
    }

    /** Groups with at least two words in the vocabulary. */
    int groups() {
        return groups.size();
    }

    /** Words in those groups (a word in two groups counts twice). */
    int words() {
        return words;
    }

    /** The score of {@code embeddings} (see the class comment); {@code NaN} without groups. */
    double score(Embeddings embeddings) {
        checkNotNull(embeddings, "embeddings");
        float[] cosines = new float[embeddings.words()];
        boolean[] inGroup = new boolean[embeddings.words()];
        double sum = 0;
        long pairs = 0;
        for (int[] group : groups) {
            for (int word : group) {
                inGroup[word] = true;
            }
            for (int word : group) {
                embeddings.cosines(word, cosines);
                for (int other : group) {
                    if (other != word) {
                        sum += embeddings.percentile(cosines, other, inGroup);
                        pairs++;
                    }
                }
            }
            for (int word : group) {
                inGroup[word] = false;
            }
        }
        return pairs == 0 ? Double.NaN : sum / pairs;
    }
}

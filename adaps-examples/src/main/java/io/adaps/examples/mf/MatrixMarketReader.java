package io.adaps.examples.mf;

import it.unimi.dsi.fastutil.floats.FloatArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a sparse matrix from a Matrix Market coordinate file (NIST, "The Matrix Market Exchange
 * Formats"):
 *
 * <pre>
 * %%MatrixMarket matrix coordinate real general
 * % comment lines start with %
 * rows cols entries
 * row col value        (1-indexed, one line per entry)
 * </pre>
 *
 * The field may be {@code real} or {@code integer}; only {@code general} (unsymmetric) matrices
 * are accepted, because ratings matrices are not symmetric. Header keywords are case-insensitive
 * and blank lines are skipped, as the format allows.
 *
 * <p>Every line is validated, and the first problem fails the read with an {@link IOException}
 * naming the file, the line number, the offending text and what was expected, e.g.
 * {@code ratings.mtx: line 17: 'x y' (expected 'row col value')}. Ids are converted to 0-based.
 */
public final class MatrixMarketReader {
    private static final String BANNER = "%%MatrixMarket";
    private static final String HEADER = BANNER + " matrix coordinate real|integer general";
    /** Most entries reserved up front, so that a huge size line alone cannot exhaust memory. */
    private static final int MAX_INITIAL_CAPACITY = 1 << 20;

    private final Path file;
    private final BufferedReader reader;
    private int lineNumber;

    private MatrixMarketReader(Path file, BufferedReader reader) {
        this.file = file;
        this.reader = reader;
    }

    /**
     * Reads {@code file}.
     *
     * @throws IOException if the file cannot be read or is not a valid coordinate matrix as described above
     */
    public static MfData read(Path file) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return new MatrixMarketReader(file, reader).readMatrix();
        }
    }

    private MfData readMatrix() throws IOException {
        boolean integer = readHeader();
        String sizeLine = nextDataLine();
        if (sizeLine == null) {
            throw endOfFile("a size line 'rows cols entries'");
        }
        String[] size = tokens(sizeLine, 3, "'rows cols entries'");
        int numRows = parseInt(size[0], sizeLine, "'rows cols entries'");
        int numCols = parseInt(size[1], sizeLine, "'rows cols entries'");
        int entries = parseInt(size[2], sizeLine, "'rows cols entries'");
        if (numRows <= 0 || numCols <= 0 || entries < 0) {
            throw malformed(sizeLine, "rows > 0, cols > 0 and entries >= 0");
        }

        int capacity = Math.min(entries, MAX_INITIAL_CAPACITY);
        IntArrayList rows = new IntArrayList(capacity);
        IntArrayList cols = new IntArrayList(capacity);
        FloatArrayList values = new FloatArrayList(capacity);
        for (String line = nextDataLine(); line != null; line = nextDataLine()) {
            if (rows.size() == entries) {
                throw malformed(line, "no more than the " + entries + " entries of the size line");
            }
            String[] entry = tokens(line, 3, "'row col value'");
            rows.add(parseId(entry[0], numRows, line, "row"));
            cols.add(parseId(entry[1], numCols, line, "col"));
            values.add(parseValue(entry[2], integer, line));
        }
        if (rows.size() < entries) {
            throw endOfFile(entries + " entries, as the size line says, but found " + rows.size());
        }
        return new MfData(numRows, numCols, rows.toIntArray(), cols.toIntArray(), values.toFloatArray());
    }

    /** Checks the banner line; returns whether the field is {@code integer}. */
    private boolean readHeader() throws IOException {
        String line = nextLine();
        if (line == null) {
            throw endOfFile("a header '" + HEADER + "'");
        }
        String[] words = line.trim().split("\\s+");
        if (words.length != 5 || !words[0].equals(BANNER)) {
            throw malformed(line, "'" + HEADER + "'");
        }
        expectWord(line, words[1], "object 'matrix'", "matrix");
        expectWord(line, words[2], "format 'coordinate'", "coordinate");
        expectWord(line, words[3], "field 'real' or 'integer'", "real", "integer");
        expectWord(line, words[4], "symmetry 'general'", "general");
        return words[3].equalsIgnoreCase("integer");
    }

    private void expectWord(String line, String word, String expected, String... accepted) throws IOException {
        for (String candidate : accepted) {
            if (word.equalsIgnoreCase(candidate)) {
                return;
            }
        }
        throw malformed(line, expected);
    }

    /** The next line that is neither a comment nor blank, or {@code null} at the end of the file. */
    private String nextDataLine() throws IOException {
        for (String line = nextLine(); line != null; line = nextLine()) {
            if (!line.isBlank() && !line.startsWith("%")) {
                return line;
            }
        }
        return null;
    }

    private String nextLine() throws IOException {
        String line = reader.readLine();
        if (line != null) {
            lineNumber++;
        }
        return line;
    }

    private String[] tokens(String line, int count, String expected) throws IOException {
        String[] tokens = line.trim().split("\\s+");
        if (tokens.length != count) {
            throw malformed(line, expected);
        }
        return tokens;
    }

    private int parseInt(String token, String line, String expected) throws IOException {
        try {
            return Integer.parseInt(token);
        } catch (NumberFormatException e) {
            throw malformed(line, expected);
        }
    }

    private int parseId(String token, int bound, String line, String name) throws IOException {
        int id = parseInt(token, line, "'row col value'");
        if (id < 1 || id > bound) {
            throw malformed(line, name + " in 1.." + bound);
        }
        return id - 1;
    }

    private float parseValue(String token, boolean integer, String line) throws IOException {
        if (integer) {
            try {
                return Long.parseLong(token);
            } catch (NumberFormatException e) {
                throw malformed(line, "an integer value, as the header says");
            }
        }
        // Float.parseFloat also takes Java spellings ("1f", "NaN", "Infinity"); decimals end in a digit or '.'.
        char last = token.charAt(token.length() - 1);
        float value;
        try {
            if (!Character.isDigit(last) && last != '.') {
                throw new NumberFormatException(token);
            }
            value = Float.parseFloat(token);
        } catch (NumberFormatException e) {
            throw malformed(line, "'row col value'");
        }
        if (!Float.isFinite(value)) {
            throw malformed(line, "a finite value");
        }
        return value;
    }

    private IOException malformed(String line, String expected) {
        return new IOException(file + ": line " + lineNumber + ": '" + line + "' (expected " + expected + ")");
    }

    private IOException endOfFile(String expected) {
        return new IOException(file + ": line " + (lineNumber + 1) + ": end of file (expected " + expected + ")");
    }
}

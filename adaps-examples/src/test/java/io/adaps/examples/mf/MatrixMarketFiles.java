package io.adaps.examples.mf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes Matrix Market coordinate files for tests. */
final class MatrixMarketFiles {
    private MatrixMarketFiles() {
    }

    /** Writes {@code data} as a {@code real general} coordinate file; values round-trip exactly. */
    static Path write(Path file, MfData data) {
        StringBuilder text = new StringBuilder("%%MatrixMarket matrix coordinate real general\n")
                .append("% written by a test\n")
                .append(data.numRows()).append(' ').append(data.numCols()).append(' ').append(data.size()).append('\n');
        for (int i = 0; i < data.size(); i++) {
            text.append(data.rows()[i] + 1).append(' ').append(data.cols()[i] + 1).append(' ')
                    .append(data.values()[i]).append('\n');
        }
        return write(file, text.toString());
    }

    /** Writes {@code text} to {@code file}. */
    static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

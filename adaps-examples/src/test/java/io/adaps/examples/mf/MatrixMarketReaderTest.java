package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MatrixMarketReaderTest {
    private static final String HEADER = "%%MatrixMarket matrix coordinate real general\n";

    @TempDir
    Path dir;

    @Test
    void roundTripsGeneratedData() throws IOException {
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(50, 30, 2_000, 3, 0.1, 1.1, 7)).sample();
        MfData read = MatrixMarketReader.read(MatrixMarketFiles.write(dir.resolve("m.mtx"), data));
        assertThat(read.numRows()).isEqualTo(50);
        assertThat(read.numCols()).isEqualTo(30);
        assertThat(read.rows()).isEqualTo(data.rows());
        assertThat(read.cols()).isEqualTo(data.cols());
        assertThat(read.values()).isEqualTo(data.values());
    }

    @Test
    void readsIntegerFieldsCommentsBlankLinesAndAnyKeywordCase() throws IOException {
        Path file = MatrixMarketFiles.write(dir.resolve("ints.mtx"), """
                %%MatrixMarket MATRIX Coordinate integer GENERAL
                % a comment

                %another comment
                3 4 2
                1 1 5

                  3   4   -2\t
                """);
        MfData data = MatrixMarketReader.read(file);
        assertThat(data.numRows()).isEqualTo(3);
        assertThat(data.numCols()).isEqualTo(4);
        assertThat(data.rows()).containsExactly(0, 2);
        assertThat(data.cols()).containsExactly(0, 3);
        assertThat(data.values()).containsExactly(5f, -2f);
    }

    @Test
    void readsAMatrixWithoutEntries() throws IOException {
        MfData data = MatrixMarketReader.read(MatrixMarketFiles.write(dir.resolve("empty.mtx"), HEADER + "2 2 0\n"));
        assertThat(data.size()).isZero();
        assertThat(data.numRows()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', textBlock = """
            empty file               ; ""                                                                  ; line 1: end of file (expected a header '%%MatrixMarket matrix coordinate real|integer general')
            no banner                ; "matrix coordinate real general\\n3 3 0\\n"                         ; line 1: 'matrix coordinate real general' (expected '%%MatrixMarket matrix coordinate real|integer general')
            short header             ; "%%MatrixMarket matrix coordinate real\\n"                          ; line 1: '%%MatrixMarket matrix coordinate real' (expected '%%MatrixMarket matrix coordinate real|integer general')
            vector object            ; "%%MatrixMarket vector coordinate real general\\n"                  ; line 1: '%%MatrixMarket vector coordinate real general' (expected object 'matrix')
            array format             ; "%%MatrixMarket matrix array real general\\n"                       ; line 1: '%%MatrixMarket matrix array real general' (expected format 'coordinate')
            complex field            ; "%%MatrixMarket matrix coordinate complex general\\n"               ; line 1: '%%MatrixMarket matrix coordinate complex general' (expected field 'real' or 'integer')
            symmetric                ; "%%MatrixMarket matrix coordinate real symmetric\\n"                ; line 1: '%%MatrixMarket matrix coordinate real symmetric' (expected symmetry 'general')
            no size line             ; "HEADER% only a comment\\n"                                         ; line 3: end of file (expected a size line 'rows cols entries')
            short size line          ; "HEADER3 3\\n"                                                      ; line 2: '3 3' (expected 'rows cols entries')
            size not a number        ; "HEADER3 x 1\\n"                                                    ; line 2: '3 x 1' (expected 'rows cols entries')
            zero rows                ; "HEADER0 3 1\\n"                                                    ; line 2: '0 3 1' (expected rows > 0, cols > 0 and entries >= 0)
            short entry              ; "HEADER3 3 2\\n1 1 1.5\\nx y\\n"                                    ; line 4: 'x y' (expected 'row col value')
            long entry               ; "HEADER3 3 1\\n1 1 1.5 7\\n"                                        ; line 3: '1 1 1.5 7' (expected 'row col value')
            row not a number         ; "HEADER3 3 1\\n1.0 1 1.5\\n"                                        ; line 3: '1.0 1 1.5' (expected 'row col value')
            value not a number       ; "HEADER3 3 1\\n1 1 abc\\n"                                          ; line 3: '1 1 abc' (expected 'row col value')
            Java float suffix        ; "HEADER3 3 1\\n1 1 1.5f\\n"                                         ; line 3: '1 1 1.5f' (expected 'row col value')
            NaN value                ; "HEADER3 3 1\\n1 1 NaN\\n"                                          ; line 3: '1 1 NaN' (expected 'row col value')
            overflowing value        ; "HEADER3 3 1\\n1 1 1e99\\n"                                         ; line 3: '1 1 1e99' (expected a finite value)
            row 0                    ; "HEADER3 3 1\\n0 1 1\\n"                                            ; line 3: '0 1 1' (expected row in 1..3)
            row too large            ; "HEADER3 3 1\\n4 1 1\\n"                                            ; line 3: '4 1 1' (expected row in 1..3)
            col too large            ; "HEADER3 3 1\\n1 9 1\\n"                                            ; line 3: '1 9 1' (expected col in 1..3)
            too many entries         ; "HEADER3 3 1\\n1 1 1\\n2 2 2\\n"                                    ; line 4: '2 2 2' (expected no more than the 1 entries of the size line)
            too few entries          ; "HEADER3 3 3\\n1 1 1\\n2 2 2\\n"                                    ; line 5: end of file (expected 3 entries, as the size line says, but found 2)
            """)
    void refusesMalformedInputNamingFileLineAndText(String problem, String text, String message) {
        String content = text.replace("HEADER", HEADER).replace("\\n", "\n");
        Path file = MatrixMarketFiles.write(dir.resolve("bad.mtx"), content);
        assertThatThrownBy(() -> MatrixMarketReader.read(file))
                .isInstanceOf(IOException.class)
                .hasMessage(file + ": " + message);
    }

    @Test
    void refusesFractionsInIntegerFiles() {
        Path file = MatrixMarketFiles.write(dir.resolve("int.mtx"),
                "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 0.5\n");
        assertThatThrownBy(() -> MatrixMarketReader.read(file))
                .hasMessage(file + ": line 3: '1 2 0.5' (expected an integer value, as the header says)");
    }

    @Test
    void reportsMissingFiles() {
        assertThatThrownBy(() -> MatrixMarketReader.read(dir.resolve("missing.mtx"))).isInstanceOf(IOException.class);
    }
}

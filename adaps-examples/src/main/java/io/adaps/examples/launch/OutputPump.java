package io.adaps.examples.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Copies one output stream of a node to a {@link ClusterOutput}: text ended by {@code '\n'} as a
 * line, text ended by {@code '\r'} as a redraw, whatever is left at the end of the stream as a
 * line. Runs on its own thread until the stream ends (the process exited or was destroyed).
 */
final class OutputPump implements Runnable {
    private final InputStream in;
    private final int node;
    private final boolean error;
    private final ClusterOutput output;

    OutputPump(InputStream in, int node, boolean error, ClusterOutput output) {
        this.in = in;
        this.node = node;
        this.error = error;
        this.output = output;
    }

    @Override
    public void run() {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            for (int read = reader.read(buffer); read >= 0; read = reader.read(buffer)) {
                for (int i = 0; i < read; i++) {
                    char c = buffer[i];
                    if (c == '\n') {
                        output.line(node, error, text.toString());
                        text.setLength(0);
                    } else if (c == '\r') {
                        if (!text.isEmpty()) {
                            output.redraw(node, error, text.toString());
                            text.setLength(0);
                        }
                    } else {
                        text.append(c);
                    }
                }
            }
        } catch (IOException e) {
            // The stream was closed under us: the process was destroyed. Nothing more will come.
        }
        if (!text.isEmpty()) {
            output.line(node, error, text.toString());
        }
    }
}

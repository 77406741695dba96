package io.adaps.examples.cluster;

import java.util.concurrent.Callable;

/** The end of a test node process: its exit code is what {@code body} returns, or 1 if it throws. */
final class ChildMain {
    private ChildMain() {
    }

    static void exitWith(Callable<Integer> body) {
        int code;
        try {
            code = body.call();
        } catch (Throwable e) {
            e.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }
}

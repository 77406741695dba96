package io.adaps.examples.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfTables;
import io.adaps.examples.mf.SyntheticMatrix;
import io.adaps.examples.spark.SparkMf.Factor;
import io.adaps.examples.spark.SparkMf.Rating;
import io.adaps.examples.spark.SparkMf.Settings;

/**
 * MF trained in a real barrier stage of Spark in local mode (two task slots, two nodes over
 * loopback Netty): the test RMSE of the stage's output falls with training, and a task that fails
 * in the stage's first attempt makes Spark run the whole stage again, which then finishes.
 */
class SparkMfIT {
    private static final int ROWS = 200;
    private static final int COLS = 100;
    private static JavaSparkContext spark;
    private static JavaRDD<Rating> train;
    private static MfData test;

    @BeforeAll
    static void start() {
        // local[2, 2]: two task slots, and a failed task may be tried twice (the stage once again).
        spark = new JavaSparkContext(new SparkConf().setMaster("local[2,2]").setAppName("adaps-mf")
                .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1"));
        MfData.Split split = new SyntheticMatrix(new SyntheticMatrix.Spec(ROWS, COLS, 20_000, 5, 0.1, 0.5, 7))
                .sample().split(0.1, 11);
        train = spark.parallelize(ratings(split.train()), 2);
        test = split.test();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.close();
        }
    }

    @Test
    void testRmseFallsWithTraining() {
        double initial = rmse(SparkMf.train(train, settings(0)).collect());
        double trained = rmse(SparkMf.train(train, settings(5)).collect());
        assertThat(trained).as("test RMSE after 5 epochs, against %s before", initial).isLessThan(0.8 * initial);
    }

    @Test
    void aFailedTaskMakesSparkRunTheStageAgain() {
        JavaRDD<Rating> failingOnce = train.map(rating -> {
            TaskContext task = TaskContext.get();
            if (task.stageAttemptNumber() == 0 && task.partitionId() == 1) {
                throw new IllegalStateException("the first attempt of task 1 fails");
            }
            return rating;
        });
        List<Factor> factors = SparkMf.train(failingOnce, settings(2)).collect();
        assertThat(factors).hasSize(ROWS + COLS);
        assertThat(rmse(factors)).isLessThan(rmse(SparkMf.train(train, settings(0)).collect()));
    }

    private static Settings settings(int epochs) {
        return new Settings(ROWS, COLS, 8, 0.05f, 0.01f, epochs, 3);
    }

    private static double rmse(List<Factor> factors) {
        Map<Integer, float[]> rows = new HashMap<>();
        Map<Integer, float[]> cols = new HashMap<>();
        for (Factor factor : factors) {
            (factor.table().equals(MfTables.ROWS) ? rows : cols).put(factor.row(), factor.values());
        }
        assertThat(rows).hasSize(ROWS);
        assertThat(cols).hasSize(COLS);
        double sum = 0;
        for (int i = 0; i < test.size(); i++) {
            float[] u = rows.get(test.rows()[i]);
            float[] w = cols.get(test.cols()[i]);
            double prediction = 0;
            for (int k = 0; k < u.length; k++) {
                prediction += u[k] * w[k];
            }
            double error = test.values()[i] - prediction;
            sum += error * error;
        }
        return Math.sqrt(sum / test.size());
    }

    private static List<Rating> ratings(MfData data) {
        List<Rating> ratings = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            ratings.add(new Rating(data.rows()[i], data.cols()[i], data.values()[i]));
        }
        return ratings;
    }
}

package io.adaps.examples.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaRDD;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.Rendezvous;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfSgdKernel;
import io.adaps.examples.mf.MfTables;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * Matrix factorization trained by an AdaPS cluster inside one Spark barrier stage
 * ({@code rdd.barrier().mapPartitions(...)}): every task of the stage is one node, started together
 * as barrier execution guarantees, and trains on its partition's ratings with Hogwild SGD
 * ({@link MfSgdKernel}); the factor tables live in the nodes. Each task finally emits the factor
 * rows its node is home of, so the stage's output is the whole model.
 *
 * <p>Rendezvous (as XGBoost4J-Spark and SynapseML do it): each task takes a free port on its
 * executor's address, {@link BarrierTaskContext#allGather} exchanges the addresses in partition
 * order, and the node starts with {@link Rendezvous#fixed}. The cluster id names the stage and its
 * attempt, so nodes of a failed attempt never join a retry. A failing task fails the attempt; Spark
 * kills the other tasks of a barrier stage and runs the whole stage again (up to
 * {@code spark.task.maxFailures}), which here starts training over.
 */
public final class SparkMf {
    private static final int BATCH = 256;

    /** One observed entry of the matrix. */
    public record Rating(int row, int col, float value) implements Serializable {
    }

    /** One row of a factor table ({@link MfTables#ROWS} or {@link MfTables#COLS}) after training. */
    public record Factor(String table, int row, float[] values) implements Serializable {
    }

    /**
     * The model and its training.
     *
     * @param numRows        rows of the matrix
     * @param numCols        columns of the matrix
     * @param rank           factors per row and column
     * @param learningRate   SGD step size
     * @param regularization L2 weight
     * @param epochs         passes over the ratings, >= 0
     * @param seed           of the initial factors
     */
    public record Settings(int numRows, int numCols, int rank, float learningRate, float regularization, int epochs,
                           long seed) implements Serializable {
        /** Validates the values that the nodes do not check themselves. */
        public Settings {
            if (epochs < 0) {
                throw new IllegalArgumentException("epochs=" + epochs + " (expected >= 0)");
            }
        }
    }

    private SparkMf() {
    }

    /**
     * Trains on {@code ratings}, one AdaPS node per partition, and returns every factor row. The
     * factors leave the barrier stage through a shuffle: Spark runs a failed barrier stage again
     * only when it is a shuffle map stage (a failed barrier result stage aborts the job).
     */
    public static JavaRDD<Factor> train(JavaRDD<Rating> ratings, Settings settings) {
        Function1<scala.collection.Iterator<Rating>, scala.collection.Iterator<Factor>> task =
                (Function1<scala.collection.Iterator<Rating>, scala.collection.Iterator<Factor>> & Serializable)
                        partition -> CollectionConverters.asScala(trainTask(CollectionConverters.asJava(partition),
                                settings));
        return ratings.rdd().barrier().mapPartitions(task, false, ClassTag$.MODULE$.apply(Factor.class)).toJavaRDD()
                .repartition(ratings.getNumPartitions());
    }

    private static Iterator<Factor> trainTask(Iterator<Rating> partition, Settings settings) {
        BarrierTaskContext context = BarrierTaskContext.get();
        MfData data = toData(partition, settings);
        int id = context.partitionId();
        String executor = context.getTaskInfos()[id].address();
        String host = executor.substring(0, executor.lastIndexOf(':'));
        String[] peers = context.allGather(host + ":" + freePort(host));
        try (AdaPS node = MfTables.builder(settings.numRows(), settings.numCols(), settings.rank(), settings.seed())
                .partitioning(Partitioning.RANGE)
                .clusterId("spark-mf-stage-" + context.stageId() + "-attempt-" + context.stageAttemptNumber())
                .rendezvous(Rendezvous.fixed(id, List.of(peers)))
                .build();
             Worker worker = node.worker()) {
            MfSgdKernel kernel = new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, settings.learningRate(),
                    settings.regularization(), BATCH);
            for (int epoch = 0; epoch < settings.epochs(); epoch++) {
                kernel.train(data, 0, data.size());
                worker.waitSync();
                node.barrier();
            }
            List<Factor> factors = new ArrayList<>();
            homeRows(worker.table(MfTables.ROWS), id, node.clusterSize(), factors);
            homeRows(worker.table(MfTables.COLS), id, node.clusterSize(), factors);
            node.barrier();
            return factors.iterator();
        }
    }

    /** Reads the rows node {@code id} is home of under range partitioning. */
    private static void homeRows(TableView table, int id, int nodes, List<Factor> out) {
        long rows = table.table().rows();
        long share = (rows + nodes - 1) / nodes;
        int rank = table.table().valueLength();
        for (long row = id * share; row < Math.min(rows, (id + 1) * share); row++) {
            float[] values = new float[rank];
            table.pull(row, values, 0);
            out.add(new Factor(table.table().name(), (int) row, values));
        }
    }

    private static MfData toData(Iterator<Rating> partition, Settings settings) {
        List<Rating> ratings = new ArrayList<>();
        partition.forEachRemaining(ratings::add);
        int[] rows = new int[ratings.size()];
        int[] cols = new int[ratings.size()];
        float[] values = new float[ratings.size()];
        for (int i = 0; i < ratings.size(); i++) {
            rows[i] = ratings.get(i).row();
            cols[i] = ratings.get(i).col();
            values[i] = ratings.get(i).value();
        }
        return new MfData(settings.numRows(), settings.numCols(), rows, cols, values);
    }

    /** A port free on {@code host} just now (bound, then released for the node to listen at). */
    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + host, e);
        }
    }
}

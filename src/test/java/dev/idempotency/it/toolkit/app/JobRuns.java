package dev.idempotency.it.toolkit.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Records every run of the locked job, outside the job beans, with start and end (ms since boot). */
@ApplicationScoped
public class JobRuns {

    private final List<long[]> runs = new ArrayList<>();
    private int running;
    private int maxConcurrent;

    /** A run starts; returns its index. */
    public synchronized int start(int bean) {
        running++;
        maxConcurrent = Math.max(maxConcurrent, running);
        runs.add(new long[] {System.nanoTime() / 1_000_000, -1, bean});
        return runs.size() - 1;
    }

    /** A run ends. */
    public synchronized void end(int index) {
        running--;
        runs.get(index)[1] = System.nanoTime() / 1_000_000;
    }

    /** "start,end,bean" lines, then "max=<most concurrent runs>". */
    public synchronized String report() {
        StringBuilder sb = new StringBuilder();
        for (long[] r : runs) {
            sb.append(r[0]).append(',').append(r[1]).append(',').append(r[2]).append('\n');
        }
        return sb.append("max=").append(maxConcurrent).toString();
    }
}

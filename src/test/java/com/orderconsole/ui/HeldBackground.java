package com.orderconsole.ui;

import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.ErrorText;
import com.orderconsole.ui.common.Job;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs work at once on the calling thread but holds each answer until the test releases it, so a
 * test can make an early request answer after a later one (a slow lookup overtaken by a fast one).
 */
public final class HeldBackground implements Background {
    private final List<Runnable> held = new ArrayList<>();

    @Override
    public <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        Job job = new Job();
        try {
            T result = work.call(job);
            held.add(() -> onSuccess.accept(result));
        } catch (Exception e) {
            held.add(() -> onError.accept(ErrorText.couldNot(what, e)));
        }
        return job;
    }

    @Override
    public void fx(Runnable update) {
        update.run();
    }

    /**
     * Delivers one held answer.
     *
     * @param index which, counting the answers in the order their work was started (0 for the first)
     */
    public void release(int index) {
        held.get(index).run();
    }
}

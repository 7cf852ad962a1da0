package com.orderconsole.ui;

import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.ErrorText;
import com.orderconsole.ui.common.Job;

import java.util.function.Consumer;

/** Runs work synchronously on the calling thread, so view models can be tested without a stage. */
public final class DirectBackground implements Background {
    @Override
    public <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        Job job = new Job();
        T result;
        try {
            result = work.call(job);
        } catch (Exception e) {
            onError.accept(ErrorText.couldNot(what, e));
            return job;
        }
        onSuccess.accept(result);
        return job;
    }

    @Override
    public void fx(Runnable update) {
        update.run();
    }
}

package com.orderconsole.bench;

import org.HdrHistogram.Histogram;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongFunction;

/**
 * The minimal client for the ceiling: plain RESP over one loopback socket, a writer thread that keeps
 * up to {@code window} commands in flight and a reader thread that parses replies in order. No futures,
 * no codecs, no command objects: what is left is the server's cost plus a socket.
 */
final class RespPipeline {
    private RespPipeline() {
    }

    /**
     * Sends {@code count} commands (stopping early after {@code maxMs}) and waits for every reply.
     *
     * @param command builds command number i as its RESP parts, e.g. {"EVALSHA", sha, "5", keys..., args...}
     * @param applied tells from a reply's leading integer (an integer reply, the first element of an array,
     *     or the number a text starts with, as in transition.lua's "code,from,version,now") whether the
     *     command did what it should
     * @return the outcome; latency in microseconds from write to reply
     */
    static LoadResult run(String host, int port, long count, int window, long maxMs, LongFunction<String[]> command,
                          java.util.function.LongPredicate applied) {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), 2000);
            s.setSoTimeout(10_000);
            OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
            Input in = new Input(s.getInputStream());
            Semaphore permits = new Semaphore(window);
            AtomicLongArray sentAt = new AtomicLongArray(window * 2);
            long[] ok = {0};
            long[] errors = {0};
            String[] firstError = {null};
            Histogram hist = new Histogram(3);
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(maxMs);
            Thread reader = new Thread(() -> {
                try {
                    for (long i = 0; ; i++) {
                        int b = in.read();
                        if (b < 0) { // input shut down by the writer once every reply was counted
                            break;
                        }
                        Object r = readReply(b, in);
                        hist.recordValue(Math.max(0, (System.nanoTime() - sentAt.get((int) (i % sentAt.length()))) / 1000));
                        if (r instanceof RespError e) {
                            errors[0]++;
                            if (firstError[0] == null) {
                                firstError[0] = e.message();
                            }
                        } else {
                            Long code = leadingCode(r);
                            if (code != null && applied.test(code)) {
                                ok[0]++;
                            }
                        }
                        permits.release();
                    }
                } catch (IOException e) {
                    if (!s.isInputShutdown()) {
                        throw new UncheckedIOException(e);
                    }
                }
            }, "resp-reader");
            reader.start();
            long i = 0;
            for (; i < count && System.nanoTime() < deadline; i++) {
                if (!permits.tryAcquire()) {
                    out.flush();
                    if (!permits.tryAcquire(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("no reply within 10 s");
                    }
                }
                sentAt.set((int) (i % sentAt.length()), System.nanoTime());
                write(out, command.apply(i));
            }
            out.flush();
            permits.acquire(window); // every reply read
            long elapsed = System.nanoTime() - start;
            s.shutdownInput();
            reader.join(2000);
            return new LoadResult(i, ok[0], errors[0], 0, firstError[0], elapsed, hist);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An unsynchronized read buffer: BufferedInputStream locks on every byte, which showed in the ceiling. */
    private static final class Input {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int len;

        Input(InputStream in) {
            this.in = in;
        }

        int read() throws IOException {
            if (pos == len) {
                len = in.read(buf, 0, buf.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    return -1;
                }
            }
            return buf[pos++] & 0xff;
        }
    }

    private static void write(OutputStream out, String[] parts) throws IOException {
        out.write(('*' + Integer.toString(parts.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String p : parts) {
            byte[] b = p.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.write('\r');
            out.write('\n');
        }
    }

    /** An error reply, kept apart from texts (transition.lua's "-4,2,2,…" starts with a minus too). */
    private record RespError(String message) {
    }

    /** @return the integer a reply leads with, or null */
    private static Long leadingCode(Object r) {
        if (r instanceof Object[] a) {
            return a.length > 0 ? leadingCode(a[0]) : null;
        }
        if (r instanceof Long l) {
            return l;
        }
        if (r instanceof String s) {
            int end = s.indexOf(',');
            try {
                return Long.parseLong(end < 0 ? s : s.substring(0, end));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** Parses one reply whose type byte was already read: errors as {@link RespError}, integers as Long, arrays as Object[]. */
    private static Object readReply(int type, Input in) throws IOException {
        String line = readLine(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                return new RespError("-" + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                StringBuilder sb = new StringBuilder(n);
                for (int k = 0; k < n; k++) {
                    sb.append((char) in.read()); // replies here are ASCII (ids, numbers)
                }
                in.read();
                in.read();
                return sb.toString();
            }
            case '*': {
                int n = Integer.parseInt(line);
                Object[] a = new Object[Math.max(n, 0)];
                for (int k = 0; k < n; k++) {
                    a[k] = readReply(in.read(), in);
                }
                return a;
            }
            default:
                throw new IOException("unexpected RESP type byte " + type);
        }
    }

    private static String readLine(Input in) throws IOException {
        StringBuilder sb = new StringBuilder(16);
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new EOFException();
            }
            sb.append((char) c);
        }
        in.read(); // '\n'
        return sb.toString();
    }
}

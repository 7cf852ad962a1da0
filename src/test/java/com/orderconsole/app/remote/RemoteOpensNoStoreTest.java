package com.orderconsole.app.remote;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Remote mode opens no connection to Redis or MySQL: every call of the console's core pages is made through the remote
 * services in a class loader of their own, which loads every class itself (child first) and records each class asked of
 * it; none of a store client (Lettuce, the MySQL driver, JDBC, MyBatis, HikariCP, Flyway, the embedded servers) is asked
 * for, nor the store layers of this product, while the same calls answer through serve.
 */
class RemoteOpensNoStoreTest {
    /** Class-name prefixes of what talks to Redis or MySQL, or starts either. */
    static final List<String> STORE = List.of("io.lettuce.", "io.netty.", "com.mysql.", "java.sql.", "javax.sql.",
            "org.apache.ibatis.", "com.zaxxer.", "org.flywaydb.", "redis.", "ch.vorburger.", "org.mariadb.",
            "com.orderconsole.redis.", "com.orderconsole.store.", "com.orderconsole.embedded.", "com.orderconsole.app.Engine",
            "com.orderconsole.app.Services");

    /** Child-first: every class but the JDK's is defined here, so every class any of them needs is asked of this loader. */
    static final class Recording extends URLClassLoader {
        final Set<String> asked = new ConcurrentSkipListSet<>();

        Recording(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            asked.add(name);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException notHere) {
                        c = super.loadClass(name, false);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    @Test
    void everyCoreCallAnswersThroughServeAndNoStoreClassIsEverAskedFor() throws Exception {
        try (RemoteHarness serve = RemoteHarness.fresh()) {
            serve.local().orders().create(new Operator("setup", Role.SUPPORT), "tour-1", null, Duration.ofMinutes(30));
            List<URL> urls = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                urls.add(Path.of(entry).toUri().toURL());
            }
            try (Recording loader = new Recording(urls.toArray(URL[]::new))) {
                Class<?> tour = loader.loadClass(RemotePagesTour.class.getName());
                assertThat(tour.getClassLoader()).isSameAs(loader);
                @SuppressWarnings("unchecked")
                List<String> seen = (List<String>) tour.getMethod("run", String.class, String.class, String.class)
                        .invoke(null, serve.base(), serve.token(Role.OPS), "tour-1");
                System.out.println("[measured] remote tour: " + seen + "; classes asked: " + loader.asked.size());
                assertThat(seen).hasSize(10).anySatisfy(l -> assertThat(l).isEqualTo("move APPLIED"))
                        .anySatisfy(l -> assertThat(l).startsWith("me sso:console-ops via"));
                List<String> store = loader.asked.stream().filter(n -> STORE.stream().anyMatch(n::startsWith)).toList();
                assertThat(store).as("store classes asked for by the remote services").isEmpty();
                assertThat(loader.asked).as("the check sees what the calls load").contains(
                        "com.orderconsole.app.remote.RemoteOrders", "java.net.http.HttpClient",
                        "com.fasterxml.jackson.databind.ObjectMapper");
            }
        }
    }
}

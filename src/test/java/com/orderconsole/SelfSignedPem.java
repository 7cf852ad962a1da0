package com.orderconsole;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;

/**
 * A self-signed certificate for localhost and 127.0.0.1 and its private key as PEM files, for a test server that speaks
 * TLS (Redis, MariaDB). Made with the JDK's keytool: the test needs nothing else installed.
 *
 * @param cert the certificate, PEM
 * @param key its unencrypted private key, PEM (PKCS#8)
 */
public record SelfSignedPem(Path cert, Path key) {

    /**
     * Makes {@code name.crt} and {@code name.key} in {@code dir} (created if absent), replacing any there.
     *
     * @param validityDays how long the certificate is valid
     * @throws IllegalStateException when keytool fails
     */
    public static SelfSignedPem make(Path dir, String name, int validityDays) {
        try {
            Files.createDirectories(dir);
            Path ks = dir.resolve(name + ".p12");
            Files.deleteIfExists(ks);
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", Integer.toString(validityDays),
                    "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1", "-keystore", ks.toString(),
                    "-storetype", "PKCS12", "-storepass", "changeit").redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IllegalStateException("keytool could not make a test certificate: " + said);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(ks)) {
                store.load(in, "changeit".toCharArray());
            }
            PrivateKey key = (PrivateKey) store.getKey(name, "changeit".toCharArray());
            SelfSignedPem pem = new SelfSignedPem(dir.resolve(name + ".crt"), dir.resolve(name + ".key"));
            Files.writeString(pem.cert(), pem("CERTIFICATE", store.getCertificate(name).getEncoded()));
            Files.writeString(pem.key(), pem("PRIVATE KEY", key.getEncoded()));
            return pem;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}

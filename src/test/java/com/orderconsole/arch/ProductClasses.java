package com.orderconsole.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The product's classes as the ArchUnit rules read them, imported once per test JVM: an import reads every class
 * file, seconds of CPU that every rules class paid again. Test classes are left out, and so are the benchmark classes
 * a -Pbench build puts in target/classes (they are not product code).
 */
final class ProductClasses {
    private static JavaClasses classes;

    private ProductClasses() {
    }

    static synchronized JavaClasses get() {
        if (classes == null) {
            classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(location -> !location.contains("/com/orderconsole/bench/") && !location.contains("BenchSweepers"))
                    .importPackages("com.orderconsole");
        }
        return classes;
    }
}

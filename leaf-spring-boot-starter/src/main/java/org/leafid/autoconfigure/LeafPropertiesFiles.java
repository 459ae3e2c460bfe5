package org.leafid.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.boot.system.ApplicationHome;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/**
 * Reads Leaf's {@code leaf.properties} from three places, highest precedence first: the working
 * directory, the directory of the jar (only when started from a jar), the classpath. All three
 * rank below command-line arguments, Java system properties and environment variables, and above
 * every {@code application.properties}. The same file found twice (working directory = jar
 * directory) is read once. One INFO line at start lists the files read.
 *
 * <p>{@code spring.config.import=file:./leaf.properties} followed the working directory only, so
 * a file beside the jar was silently ignored when the jar was started from elsewhere.
 */
class LeafPropertiesFiles implements EnvironmentPostProcessor, Ordered {

    static final String FILE_NAME = "leaf.properties";
    /** After Spring's own config files, so that their sources are in place when ours are inserted. */
    static final int ORDER = ConfigDataEnvironmentPostProcessor.ORDER + 1;

    private final Log log;

    LeafPropertiesFiles(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(LeafPropertiesFiles.class);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<Path, String> files = candidates(application);
        List<PropertySource<?>> read = new ArrayList<>();
        files.forEach((file, where) -> read.addAll(load(new FileSystemResource(file), where)));
        ClassPathResource onClasspath = new ClassPathResource(FILE_NAME, application.getClassLoader());
        String classpathText = null;
        if (onClasspath.exists() && !isOneOf(onClasspath, files.keySet())) {
            read.addAll(load(onClasspath, "classpath"));
            classpathText = "classpath:" + FILE_NAME;
        }
        insert(environment.getPropertySources(), read);
        List<String> listed = new ArrayList<>();
        files.forEach((file, where) -> listed.add(file + " (" + where + ")"));
        if (classpathText != null) {
            listed.add(classpathText);
        }
        log.info(listed.isEmpty()
                ? "No " + FILE_NAME + " found (looked in the working directory, beside the jar and on the classpath)"
                : "Read " + String.join(", ", listed) + " (first wins)");
    }

    /**
     * The existing files of the working directory and the jar's directory, by real path, that order.
     * The jar is the one of the application's main class: this class's own jar is a library of it,
     * in lib/ beside leaf-server.jar or nested in an application's jar.
     */
    private static Map<Path, String> candidates(SpringApplication application) {
        Map<Path, String> files = new LinkedHashMap<>();
        addIfExists(files, Path.of(FILE_NAME).toAbsolutePath(), "working directory");
        Class<?> mainClass = application.getMainApplicationClass();
        File jar = new ApplicationHome(mainClass != null ? mainClass : LeafPropertiesFiles.class).getSource();
        if (jar != null && jar.isFile()) {
            addIfExists(files, jar.toPath().toAbsolutePath().resolveSibling(FILE_NAME), "beside the jar");
        }
        return files;
    }

    private static void addIfExists(Map<Path, String> files, Path file, String where) {
        if (Files.isRegularFile(file)) {
            files.putIfAbsent(realPath(file), where);
        }
    }

    /** A classpath entry that is one of the files already read (tests that run from that directory). */
    private static boolean isOneOf(ClassPathResource resource, Set<Path> files) {
        try {
            return resource.isFile() && files.contains(realPath(resource.getFile().toPath()));
        } catch (IOException e) {
            return false;
        }
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot resolve " + file, e);
        }
    }

    /** The file's keys with their line numbers (for messages); nothing for an empty file. */
    private static List<PropertySource<?>> load(Resource resource, String where) {
        try {
            return new PropertiesPropertySourceLoader()
                    .load(FILE_NAME + " (" + where + ": " + resource.getDescription() + ")", resource);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource.getDescription(), e);
        }
    }

    /** Below the environment variables (or system properties, or first), in the order given. */
    private static void insert(MutablePropertySources sources, List<PropertySource<?>> read) {
        String after = sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
                ? StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
                : StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME;
        for (int i = read.size() - 1; i >= 0; i--) {
            if (sources.contains(after)) {
                sources.addAfter(after, read.get(i));
            } else {
                sources.addFirst(read.get(i));
            }
        }
    }
}

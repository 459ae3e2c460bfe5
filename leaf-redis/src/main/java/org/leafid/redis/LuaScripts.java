package org.leafid.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Lua scripts of leaf-redis, read from the jar beside the class that runs them. */
public final class LuaScripts {

    private LuaScripts() {
    }

    /** The script {@code name} in the resources of {@code owner}'s package. */
    public static String source(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + name + " is missing from the leaf-redis jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read Lua script " + name, e);
        }
    }
}

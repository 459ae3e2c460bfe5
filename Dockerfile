# syntax=docker/dockerfile:1
# Leaf server image. Build: docker build -t leaf-server .
# Needs only Maven Central (through the Maven wrapper) and the two base images.

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# Dependencies first, so source edits do not re-download them.
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
COPY leaf-core/pom.xml leaf-core/
COPY leaf-client/pom.xml leaf-client/
COPY leaf-jdbc/pom.xml leaf-jdbc/
COPY leaf-test-support/pom.xml leaf-test-support/
COPY leaf-zookeeper/pom.xml leaf-zookeeper/
COPY leaf-redis/pom.xml leaf-redis/
COPY leaf-spring-boot-starter/pom.xml leaf-spring-boot-starter/
COPY leaf-server/pom.xml leaf-server/
COPY leaf-bench/pom.xml leaf-bench/
RUN ./mvnw -B -q -pl leaf-server -am dependency:go-offline -Dmaven.test.skip=true \
        -DexcludeGroupIds=org.leafid || true
COPY leaf-core/src leaf-core/src
COPY leaf-client/src leaf-client/src
COPY leaf-jdbc/src leaf-jdbc/src
COPY leaf-test-support/src leaf-test-support/src
COPY leaf-zookeeper/src leaf-zookeeper/src
COPY leaf-redis/src leaf-redis/src
COPY leaf-spring-boot-starter/src leaf-spring-boot-starter/src
COPY leaf-server/src leaf-server/src
COPY sql sql
# The server is leaf-server.jar plus lib/ beside it; lib/ is split so that the libraries of others
# (which change with a dependency update only) make a layer of their own.
RUN ./mvnw -B -q -pl leaf-server -am -Dmaven.test.skip=true package \
    && mkdir -p /layers/dependencies/lib /layers/application/lib \
    && cp leaf-server/target/lib/leaf-*.jar /layers/application/lib/ \
    && find leaf-server/target/lib -name '*.jar' ! -name 'leaf-*.jar' -exec cp {} /layers/dependencies/lib/ \; \
    && cp leaf-server/target/leaf-server.jar /layers/application/

# Java 25 at run time (the classes are Java 17): its AOT cache halves the start (BENCHMARKS.md,
# leaf-bench/start-bench.sh).
FROM eclipse-temurin:25-jre
RUN groupadd --system --gid 10001 leaf && useradd --system --uid 10001 --gid leaf --home-dir /app --shell /usr/sbin/nologin leaf \
    && mkdir -p /app/data && chown -R leaf:leaf /app
WORKDIR /app
# Layers from the least to the most often changed, so an image update ships only the last ones.
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/application/ ./
# The AOT cache (classes loaded and linked) from one training start of the embedded default,
# stopped once the context is up; made by this image's own JVM, which is the only one it fits.
RUN java -XX:AOTCacheOutput=/app/leaf.aot -Xlog:cds=off -Xlog:aot=off -Dspring.context.exit=onRefresh \
        -jar /app/leaf-server.jar --leaf.data-dir=/tmp/training --server.port=0 --leaf.snowflake.port=8080 > /tmp/training.log 2>&1; \
    test -s /app/leaf.aot && ! grep -q 'APPLICATION FAILED TO START' /tmp/training.log || { cat /tmp/training.log; exit 1; }; rm -rf /tmp/training /tmp/training.log
USER leaf
EXPOSE 8080
VOLUME /app/data
# Heap sized from the container's memory limit: half of it, because the JVM's memory outside the heap
# was 185 MiB under load (docs/operations.md, "Kubernetes", Memory), and 75 % of the 768 MiB the
# manifests give would leave less than that. Die on OOM so the orchestrator restarts us.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC" \
    LEAF_DATA_DIR=/app/data
# Readiness over plain bash (no curl in the JRE image): DOWN while tags are unloaded or the worker id is unsafe.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET /actuator/health/readiness HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3 && head -n1 <&3 | grep -q " 200 "'
ENTRYPOINT ["java", "-XX:AOTCache=/app/leaf.aot", "-Xlog:cds=off", "-Xlog:aot=off", "-jar", "/app/leaf-server.jar"]

package org.leafid.client;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * leaf-client behind the command line the other clients' {@code leafid} commands share, so that
 * clients/conformance/conformance.py puts all four clients before the same bad servers:
 * {@code --servers URL[,URL…] (--segment TAG | --snowflake KEY | --shard APP --gate-pass P | --format NAME) [--count N]},
 * one ID a line, exit 1 with the problem on stderr. A test-side driver, not a published command.
 */
public final class ConformanceCommand {

    private ConformanceCommand() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        int count = Integer.parseInt(options.getOrDefault("--count", "1"));
        StringBuilder printed = new StringBuilder();
        try (LeafClient client = LeafClient.builder().servers(options.get("--servers").split(","))
                .maxWait(Duration.ofSeconds(5)).build()) {
            if (options.containsKey("--segment")) {
                for (long id : client.segment(options.get("--segment")).nextIds(count)) {
                    printed.append(id).append('\n');
                }
            } else if (options.containsKey("--snowflake")) {
                for (long id : client.snowflake().nextIds(count)) {
                    printed.append(id).append('\n');
                }
            } else if (options.containsKey("--shard")) {
                ShardIds shard = client.shard(Integer.parseInt(options.get("--shard")));
                String gatePass = options.get("--gate-pass");
                for (long id : gatePass == null ? shard.nextIds(count) : shard.nextIds(gatePass, count)) {
                    printed.append(id).append('\n');
                }
            } else {
                for (String value : client.format(options.get("--format")).next(count)) {
                    printed.append(value).append('\n');
                }
            }
        } catch (LeafClientException | IllegalArgumentException problem) {
            err.println("leafid: " + problem.getMessage());
            return 1;
        }
        out.write(printed.toString().getBytes(StandardCharsets.UTF_8), 0, printed.length());
        out.flush();
        return 0;
    }
}

package org.leafid.bench.http;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * The ceiling of {@code http-bench.sh}: an embedded Tomcat (the version the server runs) with
 * one plain servlet answering a constant decimal number the way the ID endpoints answer, and
 * nothing else: no Spring, no filters, no metrics. What the server's endpoints reach against
 * it is what Leaf and its framework cost on top of Tomcat itself.
 *
 * <pre>java -cp leaf-bench/target/benchmarks.jar org.leafid.bench.http.BareServletServer PORT [WORK_DIR]</pre>
 */
public final class BareServletServer {

    /** A number of the size of an ID, so the answer has the same length. */
    private static final byte[] ANSWER = Long.toString(2_124_630_342_299_025_417L).getBytes(StandardCharsets.US_ASCII);

    private BareServletServer() {}

    public static void main(String[] args) throws LifecycleException, IOException {
        if (args.length < 1 || args.length > 2 || !args[0].matches("\\d{1,5}")) {
            System.err.println("usage: BareServletServer PORT [WORK_DIR]");
            System.exit(2);
        }
        Path base = args.length == 2 ? Files.createDirectories(Path.of(args[1]))
                : Files.createTempDirectory("leaf-bare-tomcat-");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector();
        connector.setPort(Integer.parseInt(args[0]));
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.toString());
        Tomcat.addServlet(context, "number", new NumberServlet());
        context.addServletMappingDecoded("/bare", "number");
        tomcat.start();
        System.out.println("bare servlet ready on 127.0.0.1:" + args[0] + "/bare");
        tomcat.getServer().await();
    }

    /** Answers like the server's single-ID endpoints: text/plain, a known length, the digits. */
    static final class NumberServlet extends HttpServlet {

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType("text/plain;charset=UTF-8");
            response.setContentLength(ANSWER.length);
            response.getOutputStream().write(ANSWER);
        }
    }
}

package org.leafid.server.problem;

import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ProblemErrorReportValve} in place of Tomcat's HTML error report on the host. Runs
 * after Boot's own customizer, which adds a plain {@link ErrorReportValve}; that one is removed.
 */
@Component
class ProblemErrorReportConfiguration implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            if (host instanceof StandardHost standardHost) {
                // Else the host adds Tomcat's own when it starts.
                standardHost.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
            pipeline.addValve(new ProblemErrorReportValve());
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}

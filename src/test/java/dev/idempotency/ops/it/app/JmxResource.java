package dev.idempotency.ops.it.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/** Reads an attribute of an operation's MBean from the server's platform MBean server. */
@Path("jmx")
public class JmxResource {

    @GET
    @Path("{operation}/{attribute}")
    public String attribute(@PathParam("operation") String operation, @PathParam("attribute") String attribute)
            throws Exception {
        ObjectName pattern =
                new ObjectName("dev.idempotency:type=Operation,name=" + ObjectName.quote(operation) + ",*");
        for (ObjectName on : ManagementFactory.getPlatformMBeanServer().queryNames(pattern, null)) {
            return String.valueOf(ManagementFactory.getPlatformMBeanServer().getAttribute(on, attribute));
        }
        return "no MBean";
    }
}

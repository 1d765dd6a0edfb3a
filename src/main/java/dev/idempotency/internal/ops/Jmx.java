package dev.idempotency.internal.ops;

import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The MBeans of this library on the platform MBean server, which every server has. Names are {@code
 * dev.idempotency:type=<type>,application=<app>[,name=<name>]}: the application's name keeps two
 * applications on one server apart. Internal.
 */
public final class Jmx {

    /** The JMX domain of every MBean of this library. */
    public static final String DOMAIN = "dev.idempotency";

    private static final System.Logger LOG = System.getLogger(Jmx.class.getName());

    private Jmx() {}

    /** The application's name ({@code java:app/AppName}), or {@code default} outside a server. */
    public static String applicationName() {
        try {
            Object name = new InitialContext().lookup("java:app/AppName");
            if (name instanceof String s && !s.isBlank()) {
                return s;
            }
        } catch (NamingException | RuntimeException | LinkageError e) {
            // Not in a Jakarta EE container (a Weld SE test): one application per JVM.
        }
        return "default";
    }

    /** The object name of one of this application's beans; {@code name} may be {@code null}. */
    public static ObjectName name(String application, String type, String name) throws JMException {
        String n = DOMAIN + ":type=" + type + ",application=" + ObjectName.quote(application);
        if (name != null) {
            n += ",name=" + ObjectName.quote(name);
        }
        return new ObjectName(n);
    }

    /**
     * Registers an MBean, replacing one of the same name left by an earlier deployment.
     *
     * @return its name, or {@code null} if it could not be registered (logged)
     */
    public static ObjectName register(String application, String type, String name, Object bean) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName on = name(application, type, name);
            if (server.isRegistered(on)) {
                server.unregisterMBean(on);
            }
            server.registerMBean(bean, on);
            return on;
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "the idempotency MBean " + type + " " + name + " could not be registered", e);
            return null;
        }
    }

    /** Unregisters an MBean if it is registered. */
    public static void unregister(ObjectName on) {
        if (on == null) {
            return;
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            if (server.isRegistered(on)) {
                server.unregisterMBean(on);
            }
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.DEBUG, "unregistering " + on + " failed", e);
        }
    }
}

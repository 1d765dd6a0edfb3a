#!/usr/bin/env python3
"""Attributes the request threads' samples of an async-profiler collapsed profile to layers.

    python3 bench/http/profile/attribute.py PROFILE.collapsed [REQUESTS]

Works for both stores (JPA and Infinispan rows are simply empty for the other one).
PROFILE is async-profiler output with the options `collapsed,threads` (each line: thread;frames... count).
Only samples of request threads (Grizzly's http-thread-pool) that are inside request handling (a
servlet service call) count, so idle waits for the next request are left out. Each sample goes to the
layer of its innermost (leaf-most) frame that belongs to one (leaf first: driver below pool below JTA
below EclipseLink below our code), so a socket read in the PostgreSQL driver called by EclipseLink
counts as driver. "Inclusive" lines count samples with the frame anywhere on the stack. With REQUESTS
(the requests served while profiling) it also prints milliseconds per request (profiles taken with
interval=1ms: one sample is about 1 ms of one thread, or of CPU). "driver calls" splits the JDBC
driver's samples by the driver method the rest of the stack called (commit, executeUpdate, ...).
"""
import re
import sys
from collections import Counter

LAYERS = [  # first match from the leaf up wins
    ("JDBC driver (PostgreSQL, incl. socket waits)", ("org/postgresql/", "org.postgresql.")),
    ("connection pool (Payara JDBC resources)", ("com/sun/gjc/", "com.sun.gjc.", "com/sun/enterprise/resource/",
                                                 "com.sun.enterprise.resource.", "org/glassfish/resourcebase",
                                                 "com/sun/appserv/connectors", "com.sun.appserv.connectors",
                                                 "com/sun/enterprise/connectors", "com.sun.enterprise.connectors")),
    ("JTA (Payara transaction manager)", ("com/sun/enterprise/transaction", "com.sun.enterprise.transaction",
                                          "com/sun/jts", "com.sun.jts", "org/glassfish/transaction",
                                          "org.glassfish.transaction", "fish/payara/transaction",
                                          "fish.payara.transaction", "org/glassfish/cdi/transaction",
                                          "org.glassfish.cdi.transaction")),
    ("EclipseLink", ("org/eclipse/persistence", "org.eclipse.persistence")),
    ("Infinispan", ("org/infinispan", "org.infinispan", "org/jgroups", "org.jgroups")),
    ("idempotency-ee (our code)", ("dev/idempotency", "dev.idempotency")),
    ("JSON-B / JSON-P", ("org/eclipse/yasson", "org.eclipse.yasson", "org/glassfish/json", "org.glassfish.json",
                         "org/eclipse/parsson", "org.eclipse.parsson")),
    ("Weld (CDI)", ("org/jboss/weld", "org.jboss.weld")),
    ("Jersey (JAX-RS)", ("org/glassfish/jersey", "org.glassfish.jersey")),
    ("Grizzly / servlet container", ("org/glassfish/grizzly", "org.glassfish.grizzly", "org/apache/catalina",
                                     "org.apache.catalina", "com/sun/enterprise/web", "com.sun.enterprise.web",
                                     "org/glassfish/web", "org.glassfish.web")),
]
INCLUSIVE = [
    ("the HTTP guard (IdempotencyFilter: filter and aroundWriteTo)", "IdempotencyFilter"),
    ("store claim", "IdempotencyStore.claim"),
    ("store complete", "IdempotencyStore.complete"),
    ("REQUIRES_NEW transaction (JtaTransactionRunner interceptor chain)", "TransactionalInterceptorRequiresNew"),
    ("JTA commit", "JavaEETransactionManagerSimplified.commit"),
    ("createEntityManager", "createEntityManager"),
    ("EntityManager.joinTransaction", "joinTransaction"),
    ("EntityManager.flush", "EntityManagerImpl.flush"),
    ("EntityManager.close", "EntityManagerImpl.close"),
    ("Query.executeUpdate", "executeUpdate"),
    ("JNDI lookups (InitialContext.lookup)", "InitialContext.lookup"),
    ("connection getConnection", "getConnection"),
    ("socket read", "SocketInputStream"),
    ("socket read (NIO)", "NioSocketImpl.read"),
]
REQUEST = re.compile(r"http-thread-pool", re.I)
IN_REQUEST = ("Servlet.service", "ServletContainer.service", "HttpServlet.service")


def main():
    path = sys.argv[1]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    layers, inclusive, driver = Counter(), Counter(), Counter()
    total = 0
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        if not stack:
            continue
        frames = stack.split(";")
        if not REQUEST.search(frames[0]) or not any(m in stack for m in IN_REQUEST):
            continue
        n = int(n)
        total += n
        for frame in reversed(frames):
            layer = next((name for name, prefixes in LAYERS if frame.startswith(prefixes)), None)
            if layer:
                break
        layers[layer or "other (JDK, Payara, unclassified)"] += n
        for frame in frames:
            if frame.startswith(LAYERS[0][1]):
                driver[frame.replace("/", ".")] += n
                break
        for name, marker in INCLUSIVE:
            if marker in stack:
                inclusive[name] += n
    if not total:
        sys.exit("no request-thread samples in " + path)

    def row(name, n):
        per = f"{n / requests:8.3f} ms/req" if requests else ""
        print(f"  {100.0 * n / total:5.1f}%  {n:8d}  {per}  {name}")

    print(f"{path}: {total} samples in request handling" + (f", {requests} requests" if requests else ""))
    print("self time by layer (innermost frame):")
    for name, n in layers.most_common():
        row(name, n)
    print("inclusive (frame anywhere on the stack):")
    for name, _ in INCLUSIVE:
        row(name, inclusive[name])
    print("driver calls (outermost driver frame):")
    for name, n in driver.most_common(6):
        row(name, n)


if __name__ == "__main__":
    main()

package dev.idempotency.internal.jaxrs;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Keeps a form's parameters readable after the guard read its body. The guard reads every guarded
 * request's body for the fingerprint and hands the resource a copy; but some JAX-RS runtimes (RESTEasy
 * on Open Liberty) read {@code @FormParam} values from the servlet's parameters, which the servlet
 * container parses from the body stream the guard already consumed: the method would get {@code null}.
 * So a {@code POST} of {@code application/x-www-form-urlencoded} that carries the key header is
 * buffered here, before the application's filters, and its parameters are the query's followed by the
 * body's, decoded in the request's character encoding (ISO-8859-1 when it names none), as the servlet
 * specification says. Registered by {@link DeploymentCheck} in a WAR with resource classes. Internal.
 */
final class FormBodyFilter implements Filter {

    private static final String FORM = "application/x-www-form-urlencoded";

    private volatile String header = HttpSettings.DEFAULT_HEADER;

    @Override
    public void init(FilterConfig config) {
        try {
            // Read as the guard reads it (a blank value is the default, the name is checked).
            Config mp = ConfigProvider.getConfig(config.getServletContext().getClassLoader());
            header = HttpSettings.from(key -> mp.getOptionalValue(key, String.class))
                    .header();
        } catch (RuntimeException | LinkageError e) {
            // No MicroProfile Config, or invalid HTTP settings: the JAX-RS feature fails the deployment
            // for those; meanwhile the default header applies.
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http
                && "POST".equals(http.getMethod())
                && isForm(http.getContentType())
                && http.getHeader(header) != null) {
            chain.doFilter(new Buffered(http), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isForm(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.trim().toLowerCase(Locale.ROOT).equals(FORM);
    }

    /** The request with its body read once: the stream and the parameters both come from the bytes. */
    static final class Buffered extends HttpServletRequestWrapper {
        private final byte[] body;
        private ServletInputStream stream;
        private BufferedReader reader;
        private Map<String, String[]> parameters;

        Buffered(HttpServletRequest request) throws IOException {
            super(request);
            body = request.getInputStream().readAllBytes();
        }

        /**
         * The one stream over the body, as a servlet request has: a runtime that asks for it on every
         * read (Jersey) goes on where it stopped.
         */
        @Override
        public synchronized ServletInputStream getInputStream() {
            if (stream == null) {
                stream = stream(new ByteArrayInputStream(body));
            }
            return stream;
        }

        private static ServletInputStream stream(ByteArrayInputStream in) {
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    try {
                        listener.onDataAvailable();
                        listener.onAllDataRead();
                    } catch (IOException e) {
                        listener.onError(e);
                    }
                }
            };
        }

        @Override
        public synchronized BufferedReader getReader() {
            if (reader == null) {
                reader = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset()));
            }
            return reader;
        }

        @Override
        public String getParameter(String name) {
            String[] values = getParameterMap().get(name);
            return values == null || values.length == 0 ? null : values[0];
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(getParameterMap().keySet());
        }

        @Override
        public String[] getParameterValues(String name) {
            String[] values = getParameterMap().get(name);
            return values == null ? null : values.clone();
        }

        @Override
        public synchronized Map<String, String[]> getParameterMap() {
            if (parameters == null) {
                // The container's parameters are the query's now: it finds the body already read.
                Map<String, List<String>> all = new LinkedHashMap<>();
                super.getParameterMap().forEach((k, v) -> all.computeIfAbsent(k, x -> new ArrayList<>())
                        .addAll(List.of(v)));
                String text = new String(body, StandardCharsets.ISO_8859_1);
                Charset charset = charset();
                for (String pair : text.split("&")) {
                    if (pair.isEmpty()) {
                        continue;
                    }
                    int eq = pair.indexOf('=');
                    String name = decode(eq < 0 ? pair : pair.substring(0, eq), charset);
                    String value = eq < 0 ? "" : decode(pair.substring(eq + 1), charset);
                    all.computeIfAbsent(name, x -> new ArrayList<>()).add(value);
                }
                Map<String, String[]> map = new LinkedHashMap<>();
                all.forEach((k, v) -> map.put(k, v.toArray(String[]::new)));
                parameters = Collections.unmodifiableMap(map);
            }
            return parameters;
        }

        private Charset charset() {
            String name = getCharacterEncoding();
            try {
                return name == null ? StandardCharsets.ISO_8859_1 : Charset.forName(name);
            } catch (RuntimeException e) {
                return StandardCharsets.ISO_8859_1;
            }
        }

        private static String decode(String s, Charset charset) {
            try {
                return URLDecoder.decode(s, charset);
            } catch (IllegalArgumentException e) {
                // A malformed escape: the raw text, as containers keep it.
                return s;
            }
        }
    }
}

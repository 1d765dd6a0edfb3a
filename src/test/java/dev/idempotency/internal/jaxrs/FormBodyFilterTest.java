package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The buffered form request: its body is read from the container once, every later read sees the
 * bytes once through one stream (Jersey asks for the stream on every read: a fresh stream per call
 * never ends), and its parameters are the container's (the query's) followed by the body's.
 */
class FormBodyFilterTest {

    /** A servlet request with a query's parameters and a body, whose stream can be read only once. */
    private static HttpServletRequest request(String body, Map<String, String[]> query, String encoding) {
        ByteArrayInputStream raw = new ByteArrayInputStream(body.getBytes(StandardCharsets.ISO_8859_1));
        ServletInputStream once = new ServletInputStream() {
            @Override
            public int read() {
                return raw.read();
            }

            @Override
            public boolean isFinished() {
                return raw.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {}
        };
        return (HttpServletRequest) Proxy.newProxyInstance(
                FormBodyFilterTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getInputStream" -> once;
                    case "getParameterMap" -> query;
                    case "getCharacterEncoding" -> encoding;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void everyReadGoesOnThroughOneStreamUntilTheBodyEnds() throws IOException {
        FormBodyFilter.Buffered buffered = new FormBodyFilter.Buffered(request("a=1&b=2", Map.of(), null));
        StringBuilder read = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            // As Jersey reads: asks the request for its stream again on every read.
            int b = buffered.getInputStream().read();
            if (b < 0) {
                break;
            }
            read.append((char) b);
        }
        assertThat(read).hasToString("a=1&b=2");
        assertThat(buffered.getInputStream().read()).isEqualTo(-1);
        assertThat(buffered.getInputStream().isFinished()).isTrue();
    }

    @Test
    void parametersAreTheQuerysThenTheBodysDecodedInTheRequestEncoding() throws IOException {
        FormBodyFilter.Buffered latin = new FormBodyFilter.Buffered(
                request("b=x%20y&a=2&flag&c=caf%E9", Map.of("a", new String[] {"1"}), null));
        assertThat(latin.getParameterValues("a")).containsExactly("1", "2");
        assertThat(latin.getParameter("b")).isEqualTo("x y");
        assertThat(latin.getParameter("flag")).isEmpty();
        assertThat(latin.getParameter("c"))
                .as("ISO-8859-1 when the request names no encoding")
                .isEqualTo("café");
        assertThat(latin.getParameter("missing")).isNull();
        assertThat(latin.getParameterMap()).containsOnlyKeys("a", "b", "flag", "c");

        FormBodyFilter.Buffered utf8 = new FormBodyFilter.Buffered(request("c=caf%C3%A9&bad=%zz", Map.of(), "UTF-8"));
        assertThat(utf8.getParameter("c")).isEqualTo("café");
        assertThat(utf8.getParameter("bad"))
                .as("a malformed escape stays as sent")
                .isEqualTo("%zz");
        assertThat(new String(utf8.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                .as("the stream still has the body after the parameters were read")
                .isEqualTo("c=caf%C3%A9&bad=%zz");
    }
}

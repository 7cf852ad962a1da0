package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

import java.util.Locale;

/**
 * What Jetty refuses itself, before any route (a request line or header it cannot parse, a path it finds ambiguous, an
 * HTTP version it does not speak), answered in the one error shape and in our words. Jetty's own reason phrase is used
 * only to tell its refusals apart, never shown: "Ambiguous URI path segment" or "Illegal character CNTL=0x1" name
 * Jetty's parser, not what to send instead.
 */
final class JettyRefusal {
    private static final String PREFIX = "the server cannot take this request: ";
    private static final String REQUEST_LINE = "the request line is malformed: it must be a method, a path and the version, one space "
            + "apart (e.g. GET /health/live HTTP/1.1), and a path's '%' must be followed by two hex digits (never %00)";

    private JettyRefusal() {
    }

    /** Answers what Jetty refused itself, before any route, in the one error shape ({@link #of}). */
    static boolean answer(Request request, org.eclipse.jetty.server.Response response, org.eclipse.jetty.util.Callback callback) {
        String path = request.getHttpURI() == null || request.getHttpURI().getPath() == null ? "/" : request.getHttpURI().getPath();
        ApiCall call = new ApiCall(request, response, callback, path);
        call.answer(of(request));
        call.send();
        return true;
    }

    /** @return the problem to answer for the refusal Jetty recorded on {@code request} */
    static ApiProblem of(Request request) {
        int status = request.getAttribute(ErrorHandler.ERROR_STATUS) instanceof Integer i ? i : 500;
        if (status == 503) {
            return ApiProblem.stopping(); // the one 503 Jetty answers itself: a request that came while serve stops
        }
        String reason = request.getAttribute(ErrorHandler.ERROR_MESSAGE) instanceof String r ? r.toLowerCase(Locale.ROOT) : "";
        // Jetty answers a request whose request line it could not read as a stand-in request to /badMessage.
        HttpURI uri = request.getHttpURI();
        boolean lineRead = uri != null && !"/badMessage".equals(uri.getPath());
        String words = switch (status) {
            case 400 -> badRequest(lineRead, uri, reason);
            case 505, 426 -> "this server speaks HTTP/1.1 and HTTP/1.0 only: end the request line with HTTP/1.1 "
                    + "(e.g. GET /health/live HTTP/1.1)";
            case 414 -> "its path and query are longer than the server takes (8 KB)";
            case 431 -> "its headers are larger than the server takes (8 KB)";
            case 413 -> "the body is larger than " + JsonBody.MAX_BYTES / 1024 + " KB";
            case 408 -> "it stopped arriving before it was complete";
            case 417 -> "its Expect header asks for something other than 100-continue, the one expectation this server meets";
            default -> status >= 500 ? "the server failed while taking it (HTTP " + status + "); nothing was stored"
                    : "HTTP " + status;
        };
        ErrorKind kind = status >= 500 && status != 505 ? ErrorKind.FAILED
                : java.util.Arrays.stream(ErrorKind.values()).filter(k -> k.httpStatus() == status && k != ErrorKind.REJECTED)
                        .findFirst().orElse(ErrorKind.USAGE);
        return new ApiProblem(status, kind, PREFIX + words + (status < 500 ? "; nothing was stored" : ""));
    }

    private static String badRequest(boolean lineRead, HttpURI uri, String reason) {
        if (!lineRead) {
            return REQUEST_LINE;
        }
        if (uri.hasViolation(UriCompliance.Violation.FRAGMENT)) {
            return "its path has a fragment (a '#' and what follows it), which a client keeps to itself and never sends";
        }
        if (uri.isAmbiguous()) {
            return "the request's path is ambiguous: it has an encoded '/' or '..', an empty segment or an encoded '%' "
                    + "(write each path as GET /v1/openapi.json lists it, ids as they are)";
        }
        if (uri.hasViolations()) {
            return "its path has characters that must be percent-encoded as UTF-8";
        }
        if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
            return "the request's target must be a path starting with '/' (e.g. /v1/orders)";
        }
        if (reason.contains("illegal character")) {
            return "a header line is malformed: it must be 'Name: value' on one line, the name without spaces and neither with "
                    + "control characters";
        }
        if (reason.contains("no host")) {
            return "an HTTP/1.1 request needs a Host header (e.g. Host: 127.0.0.1)";
        }
        if (reason.contains("host")) {
            return "the Host header is given twice; send it once";
        }
        if (reason.contains("transfer-encoding")) {
            return "its Transfer-Encoding is not one the server takes: chunked, last, and never beside a Content-Length";
        }
        if (reason.contains("content-length")) {
            return "its Content-Length header is given twice or is not a number; send it once, with the body's length in bytes";
        }
        return "its headers are not valid HTTP/1.1 (each 'Name: value' on one line, Host once, Content-Length at most once)";
    }
}

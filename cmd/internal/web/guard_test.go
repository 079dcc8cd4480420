package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestGuard: a request without the token, with a wrong one, from another
// Host (DNS rebinding) or, when it writes, from another Origin is refused
// and learns nothing of the repository; the token in the URL becomes an
// HttpOnly, SameSite=Strict cookie and leaves the address.
func TestGuard(t *testing.T) {
	s := newSite(t, repoOf(t, testFiles))
	refused := []struct {
		name string
		r    req
		code int
	}{
		{"no token", req{path: "/", cookie: "-"}, http.StatusForbidden},
		{"wrong cookie", req{path: "/", cookie: "WRONGTOKEN0123456789ABC"}, http.StatusForbidden},
		{"wrong token in the URL", req{path: "/?token=WRONGTOKEN0123456789ABC", cookie: "-"}, http.StatusForbidden},
		{"a token's prefix", req{path: "/", cookie: testToken[:10]}, http.StatusForbidden},
		{"rebound host", req{path: "/", host: "evil.example:7474"}, http.StatusForbidden},
		{"rebound host with the token", req{path: "/?token=" + testToken, host: "evil.example:7474", cookie: "-"}, http.StatusForbidden},
		{"another port", req{path: "/", host: "127.0.0.1:9999"}, http.StatusForbidden},
		{"no host", req{path: "/item?ref=KB-TSK-0001", host: " "}, http.StatusForbidden},
		{"foreign origin", req{method: http.MethodPost, path: "/", origin: "http://evil.example"}, http.StatusForbidden},
		{"no origin on a POST", req{method: http.MethodPost, path: "/"}, http.StatusForbidden},
		{"own origin, but no form token", req{method: http.MethodPost, path: "/", origin: "http://127.0.0.1:7474"}, http.StatusForbidden},
		{"own origin, a method the board does not take", req{method: http.MethodPut, path: "/", origin: "http://127.0.0.1:7474"}, http.StatusMethodNotAllowed},
		{"events without the token", req{path: "/events", cookie: "-"}, http.StatusForbidden},
		{"static without the token", req{path: "/static/app.js", cookie: "-"}, http.StatusForbidden},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			w := s.do(t, c.r)
			if w.Code != c.code {
				t.Fatalf("%d, want %d\n%s", w.Code, c.code, w.Body)
			}
			body := w.Body.String()
			for _, leak := range []string{"KB-TSK", "session tokens", testToken, "items/"} {
				if strings.Contains(body, leak) {
					t.Errorf("the refusal leaks %q: %s", leak, body)
				}
			}
			if len(w.Result().Cookies()) > 0 {
				t.Errorf("a refusal set a cookie")
			}
			securityHeaders(t, w.Header())
		})
	}

	w := s.do(t, req{path: "/item?ref=KB-TSK-0001&token=" + testToken, cookie: "-"})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/item?ref=KB-TSK-0001" {
		t.Fatalf("the token's first visit: %d to %q, want 303 to the page without the token", w.Code, w.Header().Get("Location"))
	}
	cs := w.Result().Cookies()
	if len(cs) != 1 || cs[0].Value != testToken || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode || cs[0].Path != "/" {
		t.Fatalf("the cookie: %+v", cs)
	}
	for _, path := range []string{"//evil.example/?token=" + testToken, "/\\evil.example/?token=" + testToken} {
		w := s.do(t, req{path: path, cookie: "-"})
		if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.Contains(loc, "\\") {
			t.Errorf("%s redirects to %q (%d): another site", path, loc, w.Code)
		}
	}
	if w := s.do(t, req{path: "/static/"}); w.Code != http.StatusNotFound {
		t.Errorf("/static/ lists its folder: %d", w.Code)
	}
	for _, host := range []string{"127.0.0.1:7474", "localhost:7474", "[::1]:7474", "LOCALHOST:7474"} {
		if w := s.do(t, req{path: "/", host: host}); w.Code != http.StatusOK {
			t.Errorf("Host %s: %d", host, w.Code)
		}
	}
	securityHeaders(t, s.do(t, req{path: "/"}).Header())
}

func securityHeaders(t *testing.T, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP allows inline or eval: %q", csp)
	}
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
		if h.Get(k) != v {
			t.Errorf("%s: %q, want %q", k, h.Get(k), v)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:0", "localhost:7474", "[::1]:80", "unix:/tmp/x/canon.sock"} {
		if err := CheckAddr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:7474", ":7474", "192.168.1.2:80", "example.com:80", "127.0.0.1", "unix:"} {
		err := CheckAddr(bad)
		if err == nil {
			t.Errorf("%s was accepted", bad)
			continue
		}
		if !strings.Contains(err.Error(), "loopback") && !strings.Contains(err.Error(), "unix:PATH") {
			t.Errorf("%s: %v does not say what to give", bad, err)
		}
	}
}

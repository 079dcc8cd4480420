package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// The board shows a repository's documents and, through them, the user's
// work: any web page the user visits can send requests to a loopback
// port, and any name an attacker controls can be pointed at 127.0.0.1
// (DNS rebinding). So every request passes the guard (ADR-0077):
//
//   - its Host is the server's own loopback address (a rebound name is
//     refused before anything is read);
//   - it carries the token: in the URL printed at start, once, which sets
//     an HttpOnly, SameSite=Strict cookie and redirects to the same page
//     without it; afterwards in the cookie;
//   - a request that is not a GET or HEAD comes with the server's own
//     Origin (none does today: the board only reads);
//   - every answer carries a strict Content-Security-Policy (no inline
//     script, nothing from elsewhere), nosniff, no framing, no referrer,
//     no caching.
//
// A refused request learns nothing: one short sentence, the same for a
// wrong token whatever it was.

// guard checks every request before the application sees it.
type guard struct {
	next   http.Handler
	token  []byte   // sha256 of the token
	hosts  []string // accepted Host values; nil: any (a Unix socket)
	origin []string // accepted Origin values
	cookie string   // the token cookie's name
}

// tokenParam is the query parameter of the printed URL.
const tokenParam = "token"

// csp is the pages' Content-Security-Policy: the server's own script and
// style sheet, no inline script or style attribute, images of its own or
// data: URLs (a document's remote image would leak that the page was
// read), no plugin, no base, no framing, forms only to itself.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func newGuard(addr, token string, next http.Handler) *guard {
	sum := sha256.Sum256([]byte(token))
	g := &guard{next: next, token: sum[:], cookie: "canon_serve"}
	if !strings.HasPrefix(addr, unixPrefix) {
		_, port, _ := net.SplitHostPort(addr)
		for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
			g.hosts = append(g.hosts, h+":"+port)
			g.origin = append(g.origin, "http://"+h+":"+port)
		}
		// Cookies are per host, not per port: two servers on one
		// machine keep a cookie each.
		g.cookie += "_" + port
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if g.hosts != nil && !slices.Contains(g.hosts, strings.ToLower(r.Host)) {
		refuse(w, http.StatusForbidden, "canon serve: this address is not the server's; open the URL canon serve printed")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if g.origin != nil && !slices.Contains(g.origin, strings.ToLower(r.Header.Get("Origin"))) {
			refuse(w, http.StatusForbidden, "canon serve: refused a request from another origin")
			return
		}
		refuse(w, http.StatusMethodNotAllowed, "canon serve: the board only reads")
		return
	}
	if tok := r.URL.Query().Get(tokenParam); tok != "" {
		if !g.matches(tok) {
			refuse(w, http.StatusForbidden, "canon serve: wrong token; open the URL canon serve printed")
			return
		}
		// The token goes into the cookie and out of the address bar
		// (and the history): the same page, without it.
		http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q := r.URL.Query()
		q.Del(tokenParam)
		// One leading slash: a path of //host would send the browser
		// to another site (an open redirect).
		u := url.URL{Path: "/" + strings.TrimLeft(r.URL.Path, "/\\"), RawQuery: q.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(g.cookie)
	if err != nil || !g.matches(c.Value) {
		refuse(w, http.StatusForbidden, "canon serve: no token; open the URL canon serve printed (it carries the token)")
		return
	}
	g.next.ServeHTTP(w, r)
}

// matches compares a token with the server's, in constant time.
func (g *guard) matches(tok string) bool {
	sum := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(sum[:], g.token) == 1
}

// refuse answers a plain sentence.
func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(msg + "\n"))
}

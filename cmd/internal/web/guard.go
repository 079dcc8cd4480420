package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
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
//     Origin; only a POST is served (a move or a claim), and it carries,
//     beside the cookie, the session's form token (csrf) in the
//     X-Canon-CSRF header or the csrf form field: a value the pages
//     hold, which another site can neither read nor guess;
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
	csrf   string   // the session's form token
}

// csrfHeader and csrfField carry the form token of a POST.
const (
	csrfHeader = "X-Canon-CSRF"
	csrfField  = "csrf"
)

// maxForm bounds the body of a POST: a move names an item and a state.
const maxForm = 16 << 10

// formToken is the session's form token: an HMAC of the token under a
// key made at start, so that it names this start's session, tells
// nothing of the token (which the cookie keeps from the page's script),
// and changes at each start.
func formToken(token string) string {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
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
	g := &guard{next: next, token: sum[:], cookie: "canon_serve", csrf: formToken(token)}
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
	reads := r.Method == http.MethodGet || r.Method == http.MethodHead
	if !reads {
		if g.origin != nil && !slices.Contains(g.origin, strings.ToLower(r.Header.Get("Origin"))) {
			refuse(w, http.StatusForbidden, "canon serve: refused a request from another origin")
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "GET, HEAD, POST")
			refuse(w, http.StatusMethodNotAllowed, "canon serve: the board reads with GET and writes with POST only")
			return
		}
	}
	if tok := r.URL.Query().Get(tokenParam); tok != "" && reads {
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
	if !reads && !g.formTokenOK(w, r) {
		refuse(w, http.StatusForbidden, "canon serve: the form token is missing or stale; reload the page and try again")
		return
	}
	g.next.ServeHTTP(w, r)
}

// formTokenOK reports whether a POST carries the session's form token, in
// its header or its (bounded, URL-encoded) form.
func (g *guard) formTokenOK(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	got := r.Header.Get(csrfHeader)
	if got == "" {
		if r.ParseForm() != nil {
			return false
		}
		got = r.PostForm.Get(csrfField)
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(g.csrf)) == 1
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

package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/index/safepath"
)

// MCP over HTTP is a door into the user's files (promote writes them):
// every request carries the server's bearer token, or comes through a Unix
// socket only the user can open; an Origin header, which only browsers
// send, must be one of the server's own; sessions end when idle, and at
// most maxSessions live at once (ADR-0030).

// HTTP says how canon mcp --http serves.
type HTTP struct {
	// Addr is a loopback address (127.0.0.1:PORT, localhost:PORT,
	// [::1]:PORT) or unix:PATH, a socket made only the user can open.
	Addr string
	// Token is the bearer token every request must carry; "" for none,
	// which only a Unix socket may go without.
	Token string
	// AllowOrigins are origins accepted besides the server's own
	// loopback ones (http://127.0.0.1:PORT and its names).
	AllowOrigins []string
	// IdleTimeout ends a session that sent nothing for that long
	// (defaultIdle when 0).
	IdleTimeout time.Duration
	// Ready, when set, hears the address once the server listens (the
	// port chosen for :0).
	Ready func(addr string)
}

// defaultIdle is how long a session may stay silent: an agent between two
// tasks comes back within it, and a client that gives up a session without
// closing it holds its memory (about 25 KB) no longer. A client whose
// session ended gets 404 and, as the specification says, starts another.
const defaultIdle = 30 * time.Minute

// maxSessions bounds the sessions alive at once: a new one past it ends
// the session idle the longest. An agent opens one or a few; 64 of them
// hold about 2 MB.
const maxSessions = 64

// unixPrefix marks an --http address that is a Unix socket.
const unixPrefix = "unix:"

// PrepareHTTP turns canon mcp's --http flags into the options to serve
// with, before the repository opens: a loopback address or a Unix socket,
// origins as a browser sends them, an idle timeout above zero, and the
// token (the one line of tokenFile, else a new one, which the caller
// prints once: printed is true; a Unix socket without tokenFile goes
// without).
func PrepareHTTP(addr, tokenFile string, origins []string, idle time.Duration) (o HTTP, printed bool, err error) {
	if err := CheckAddr(addr); err != nil {
		return HTTP{}, false, err
	}
	for _, s := range origins {
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return HTTP{}, false, fmt.Errorf("--allow-origin %s is not an origin; give scheme://host:port, as a browser sends it (http://localhost:5173)", s)
		}
	}
	if idle <= 0 {
		return HTTP{}, false, fmt.Errorf("--idle-timeout %s is not a duration above zero (30m, 2h)", idle)
	}
	o = HTTP{Addr: addr, AllowOrigins: origins, IdleTimeout: idle}
	switch {
	case tokenFile != "":
		if o.Token, err = ReadTokenFile(tokenFile); err != nil {
			return HTTP{}, false, err
		}
	case !strings.HasPrefix(addr, unixPrefix):
		o.Token, printed = NewToken(), true
	}
	return o, printed, nil
}

// NewToken makes a bearer token: 128 random bits, in base32.
func NewToken() string { return rand.Text() }

// minTokenLen is the shortest token a --token-file may hold: 16 characters
// of base32 are 80 bits.
const minTokenLen = 16

// maxTokenFile is the most a --token-file may hold: a token is one line.
const maxTokenFile = 4096

// ReadTokenFile reads a bearer token from a file only the user can read:
// owned by the user, no permission for the group or others (a token
// others can read authenticates them).
//
// The path is asked what it names before it is opened: opening a named
// pipe waits for a writer (canon mcp hung before it served, for ever when
// none came) and opening some devices does something. It is opened
// without waiting (O_NONBLOCK), and the opened file is asked again, so a
// pipe put in place between the two is refused too; the read is bounded.
func ReadTokenFile(path string) (string, error) {
	pre, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if !pre.Mode().IsRegular() {
		return "", tokenFileKind(path, pre.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", tokenFileKind(path, fi.Mode())
	}
	if err := onlyUser(fi, path, 0o077, "chmod 600"); err != nil {
		return "", fmt.Errorf("--token-file %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	switch {
	case len(data) > maxTokenFile:
		return "", fmt.Errorf("--token-file %s is longer than 4 KiB; a token is one line", path)
	case len(tok) < minTokenLen:
		return "", fmt.Errorf("--token-file %s holds %d characters; a token has at least %d (openssl rand -hex 32 makes one)", path, len(tok), minTokenLen)
	case strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0:
		return "", fmt.Errorf("--token-file %s holds spaces or characters a header cannot carry; a token is one word of printable ASCII", path)
	}
	return tok, nil
}

// tokenFileKind refuses a --token-file that is no regular file: a named
// pipe, a device, a socket or a folder.
func tokenFileKind(path string, mode os.FileMode) error {
	return fmt.Errorf("--token-file %w", &safepath.NotRegularError{Path: path, Mode: mode})
}

// onlyUser refuses a file or folder another user owns or one whose mode
// has any bit of others set (others: 0o077 for group and others).
func onlyUser(fi os.FileInfo, path string, others os.FileMode, fix string) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d); use a file of your own", path, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&others != 0 {
		return fmt.Errorf("%s can be read by others (mode %04o); %s %s", path, perm, fix, path)
	}
	return nil
}

// CheckAddr refuses an --http address another machine could reach.
func CheckAddr(addr string) error {
	if path, ok := strings.CutPrefix(addr, unixPrefix); ok {
		if path == "" {
			return errors.New("--http unix: names no socket; give unix:PATH")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("--http %s is not HOST:PORT; canon serves this machine only (127.0.0.1:PORT, or unix:PATH)", addr)
	}
	switch host {
	case "127.0.0.1", "localhost", "::1":
		return nil
	}
	return fmt.Errorf("--http %s is not a loopback address; canon serves this machine only (127.0.0.1:PORT, or unix:PATH)", addr)
}

// Listen opens o.Addr: a loopback TCP port, or a Unix socket made 0600
// in a folder only the user can enter (made 0700 when missing).
func Listen(addr string) (net.Listener, error) {
	if err := CheckAddr(addr); err != nil {
		return nil, err
	}
	path, ok := strings.CutPrefix(addr, unixPrefix)
	if !ok {
		return net.Listen("tcp", addr)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("--http %s: %w", addr, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--http %s: %w", addr, err)
	}
	if err := onlyUser(fi, dir, 0o077, "chmod 700"); err != nil {
		return nil, fmt.Errorf("--http %s: the socket's folder %w", addr, err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("--http %s: %s exists and is no socket; name another path", addr, path)
		}
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return nil, fmt.Errorf("--http %s: another server listens on %s", addr, path)
		}
		os.Remove(path) // a socket left by a server that died
	}
	old := syscall.Umask(0o177) // the socket is born 0600: no moment others could connect
	l, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("--http %s: %w", addr, err)
	}
	return l, nil
}

// ServeHTTP serves streamable HTTP as o says until ctx ends.
func (m *Server) ServeHTTP(ctx context.Context, o HTTP) error {
	if o.Token == "" && !strings.HasPrefix(o.Addr, unixPrefix) {
		return errors.New("canon mcp over TCP needs a bearer token")
	}
	l, err := Listen(o.Addr)
	if err != nil {
		return err
	}
	addr := l.Addr().String()
	if l.Addr().Network() == "unix" {
		addr = o.Addr
		defer os.Remove(strings.TrimPrefix(o.Addr, unixPrefix))
	}
	h := m.Handler(o, addr)
	defer h.Close()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if o.Ready != nil {
		o.Ready(addr)
	}
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler is the server's HTTP handler for o, served at addr (the
// listener's, for the origins of the server's own address).
func (m *Server) Handler(o HTTP, addr string) *Guard {
	idle := o.IdleTimeout
	if idle <= 0 {
		idle = defaultIdle
	}
	g := &Guard{origins: ownOrigins(addr), seen: map[string]time.Time{}, server: m.server}
	for _, a := range o.AllowOrigins {
		g.origins = append(g.origins, normalOrigin(a))
	}
	if o.Token != "" {
		sum := sha256.Sum256([]byte(o.Token))
		g.token = sum[:]
	}
	g.next = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m.server }, &mcp.StreamableHTTPOptions{SessionTimeout: idle})
	return g
}

// Guard checks every request before the SDK's handler sees it: its
// Origin, its token; and it bounds the sessions.
type Guard struct {
	next    *mcp.StreamableHTTPHandler
	server  *mcp.Server
	token   []byte   // sha256 of the token; nil: none asked (a Unix socket)
	origins []string // accepted Origin values, normalised

	mu   sync.Mutex
	seen map[string]time.Time // session id → its last request
}

// Close ends every session.
func (g *Guard) Close() {
	for ss := range g.server.Sessions() {
		ss.Close()
	}
}

func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin != "" && !slices.Contains(g.origins, normalOrigin(origin)) {
		// A web page the user visits may reach a loopback port; only
		// browsers send Origin, and a browser's page is not the agent.
		http.Error(w, fmt.Sprintf("canon mcp: origin %q is not allowed; start canon mcp with --allow-origin %s to accept it", origin, origin), http.StatusForbidden)
		return
	}
	if origin != "" {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
		w.Header().Add("Vary", "Origin")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-Id")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="canon mcp"`)
		http.Error(w, "canon mcp: missing or wrong bearer token; send the token canon mcp printed when it started (or the --token-file's) as Authorization: Bearer TOKEN", http.StatusUnauthorized)
		return
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" && r.Method == http.MethodPost {
		g.makeRoom()
		w = &sessionNoter{ResponseWriter: w, g: g}
	} else if id != "" {
		g.mu.Lock()
		if _, ok := g.seen[id]; ok {
			g.seen[id] = time.Now()
		}
		g.mu.Unlock()
	}
	g.next.ServeHTTP(w, r)
}

// authorized reports a request that carries the token (any request, when
// none is asked). The hashes are compared in constant time.
func (g *Guard) authorized(r *http.Request) bool {
	if g.token == nil {
		return true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], g.token) == 1
}

// makeRoom ends the session idle the longest when maxSessions are alive,
// before a request that may start another. Sessions the SDK ended (idle,
// DELETE) are forgotten first.
func (g *Guard) makeRoom() {
	live := map[string]*mcp.ServerSession{}
	for ss := range g.server.Sessions() {
		live[ss.ID()] = ss
	}
	g.mu.Lock()
	for id := range g.seen {
		if live[id] == nil {
			delete(g.seen, id)
		}
	}
	var oldest string
	if len(g.seen) >= maxSessions {
		for id, at := range g.seen {
			if oldest == "" || at.Before(g.seen[oldest]) {
				oldest = id
			}
		}
		delete(g.seen, oldest)
	}
	g.mu.Unlock()
	if ss := live[oldest]; ss != nil {
		ss.Close()
	}
}

// sessionNoter notes the session a response starts (its Mcp-Session-Id).
type sessionNoter struct {
	http.ResponseWriter
	g    *Guard
	done bool
}

func (s *sessionNoter) WriteHeader(code int) {
	if !s.done {
		s.done = true
		if id := s.Header().Get("Mcp-Session-Id"); id != "" && code < 300 {
			s.g.mu.Lock()
			s.g.seen[id] = time.Now()
			s.g.mu.Unlock()
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionNoter) Write(p []byte) (int, error) {
	if !s.done {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController the writer underneath.
func (s *sessionNoter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush lets the SDK stream through the wrapper.
func (s *sessionNoter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// ownOrigins are the origins of a page served at addr's port on this
// machine's loopback names: what a browser sends when the page is the
// server's own.
func ownOrigins(addr string) []string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	var out []string
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		out = append(out, "http://"+h+":"+port)
	}
	return out
}

// normalOrigin lower-cases an origin's scheme and host and drops a
// trailing slash, as browsers send it.
func normalOrigin(o string) string {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return strings.TrimSuffix(strings.TrimSpace(o), "/")
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

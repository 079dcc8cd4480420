package mcpserver

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/index/indextest/hang"
)

// httpServer serves the repository in dir over streamable HTTP, as canon
// mcp --http does, with o (its token set when o has none).
func httpServer(t *testing.T, dir string, o HTTP) (*Server, *httptest.Server, HTTP) {
	t.Helper()
	srv, err := New(context.Background(), dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	if o.Token == "" {
		o.Token = NewToken()
	}
	ts := httptest.NewUnstartedServer(nil)
	g := srv.Handler(o, ts.Listener.Addr().String())
	ts.Config.Handler = g
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(g.Close)
	return srv, ts, o
}

// withHeaders adds headers to every request.
type withHeaders struct {
	h    http.Header
	base http.RoundTripper
}

func (w withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range w.h {
		r.Header[k] = v
	}
	return w.base.RoundTrip(r)
}

// httpClient connects the SDK's client to url with these headers.
func httpClient(t *testing.T, url string, h http.Header) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withHeaders{h, http.DefaultTransport}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func bearer(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

// post sends one JSON-RPC message and returns the status and the body.
func post(t *testing.T, url string, h http.Header, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(data), res.Header
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHTTPNeedsTheToken: without the server's bearer token (none, another,
// another scheme) nothing is answered, promote least of all; with it,
// tools answer.
func TestHTTPNeedsTheToken(t *testing.T) {
	dir, cs := mcpRepo(t)
	call(t, cs, "workset_new", map[string]any{"name": "w", "seeds": []string{"KB-TSK-0001"}}, nil)
	call(t, cs, "note", map[string]any{"workset": "w", "target": "KB-TSK-0001", "kind": "decision", "text": "written by a stranger"}, nil)
	_, ts, o := httpServer(t, dir, HTTP{})
	for name, h := range map[string]http.Header{
		"no token":      nil,
		"another token": bearer(NewToken()),
		"a prefix":      bearer(o.Token[:len(o.Token)-1]),
		"basic":         {"Authorization": {"Basic " + o.Token}},
	} {
		if code, body, hdr := post(t, ts.URL, h, initialize); code != http.StatusUnauthorized || !strings.Contains(body, "Authorization: Bearer TOKEN") || hdr.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: %d %s", name, code, body)
		}
		if _, err := httpClient(t, ts.URL, h); err == nil {
			t.Errorf("%s: the client connected", name)
		}
	}
	// The token of the server, and it works.
	cs2, err := httpClient(t, ts.URL, bearer(o.Token))
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Documents int }
	call(t, cs2, "status", nil, &st)
	if st.Documents != 3 {
		t.Errorf("status over HTTP: %+v", st)
	}
	// A session id is no key: a request of the session without the token
	// is refused, and promote wrote nothing.
	code, _, hdr := post(t, ts.URL, bearer(o.Token), initialize)
	id := hdr.Get("Mcp-Session-Id")
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize with the token: %d, session %q", code, id)
	}
	promote := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"promote","arguments":{"workset":"w","apply":true}}}`
	if code, body, _ := post(t, ts.URL, http.Header{"Mcp-Session-Id": {id}}, promote); code != http.StatusUnauthorized {
		t.Errorf("promote with a session id and no token: %d %s", code, body)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "items/KB-TSK-0001.md")); strings.Contains(string(data), "stranger") {
		t.Error("promote wrote without the token")
	}
}

// TestHTTPOrigin: a request with an Origin (a browser's) is answered only
// from the server's own loopback origins or one allowed; none (any other
// client) is fine.
func TestHTTPOrigin(t *testing.T) {
	dir, _ := mcpRepo(t)
	_, ts, o := httpServer(t, dir, HTTP{AllowOrigins: []string{"http://localhost:5173"}})
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	for origin, want := range map[string]int{
		"":                                   http.StatusOK,
		"http://127.0.0.1:" + port:           http.StatusOK,
		"http://localhost:" + port:           http.StatusOK,
		"http://LOCALHOST:" + port + "/":     http.StatusOK,
		"http://localhost:5173":              http.StatusOK,
		"https://evil.example":               http.StatusForbidden,
		"http://127.0.0.1:1":                 http.StatusForbidden,
		"null":                               http.StatusForbidden,
		"http://localhost:5173.evil.example": http.StatusForbidden,
	} {
		h := bearer(o.Token)
		if origin != "" {
			h.Set("Origin", origin)
		}
		if code, body, _ := post(t, ts.URL, h, initialize); code != want {
			t.Errorf("origin %q: %d (want %d) %s", origin, code, want, body)
		}
	}
	// Even without the token, a foreign origin hears 403, not how to
	// authenticate.
	if code, _, _ := post(t, ts.URL, http.Header{"Origin": {"https://evil.example"}}, initialize); code != http.StatusForbidden {
		t.Errorf("foreign origin without a token: %d", code)
	}
}

// TestHTTPSessionsEnd: a silent session ends after the idle timeout, and
// its memory with it; a request of it then hears 404, as the
// specification says, so that the client starts another.
func TestHTTPSessionsEnd(t *testing.T) {
	dir, _ := mcpRepo(t)
	srv, ts, o := httpServer(t, dir, HTTP{IdleTimeout: 200 * time.Millisecond})
	_, _, hdr := post(t, ts.URL, bearer(o.Token), initialize)
	id := hdr.Get("Mcp-Session-Id")
	if n := sessions(srv); n != 1 {
		t.Fatalf("%d sessions after one initialize", n)
	}
	hang.Until(t, "the session outlived its idle timeout", func() bool { return sessions(srv) == 0 })
	h := bearer(o.Token)
	h.Set("Mcp-Session-Id", id)
	if code, _, _ := post(t, ts.URL, h, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != http.StatusNotFound {
		t.Errorf("a request of an ended session: %d", code)
	}
}

func sessions(srv *Server) int {
	n := 0
	for range srv.server.Sessions() {
		n++
	}
	return n
}

// TestHTTPSessionsBounded: 5,000 initialisations never closed keep at most
// maxSessions sessions alive, and the heap stays where it was after the
// first few hundred (it grew by 128 MB before).
func TestHTTPSessionsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (5,000 initialisations; fewer would not show the heap's growth): make test runs it")
	}
	dir, _ := mcpRepo(t)
	srv, ts, o := httpServer(t, dir, HTTP{})
	h := bearer(o.Token)
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var at500 uint64
	for i := range 5000 {
		if code, body, _ := post(t, ts.URL, h, initialize); code != http.StatusOK {
			t.Fatalf("initialize %d: %d %s", i, code, body)
		}
		if i == 499 {
			at500 = heap()
		}
		if n := sessions(srv); n > maxSessions {
			t.Fatalf("%d sessions alive after %d initialisations", n, i+1)
		}
	}
	end := heap()
	t.Logf("heap after 500 initialisations %.1f MB, after 5,000 %.1f MB; %d sessions", float64(at500)/1e6, float64(end)/1e6, sessions(srv))
	if end > at500+8<<20 {
		t.Errorf("the heap grew from %.1f MB to %.1f MB between 500 and 5,000 initialisations", float64(at500)/1e6, float64(end)/1e6)
	}
	// The session used last survives the ones started after it.
	_, _, hdr := post(t, ts.URL, h, initialize)
	keep := hdr.Get("Mcp-Session-Id")
	for range maxSessions - 1 {
		post(t, ts.URL, h, initialize)
	}
	h.Set("Mcp-Session-Id", keep)
	if code, _, _ := post(t, ts.URL, h, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != http.StatusOK {
		t.Errorf("the session used last was ended: %d", code)
	}
}

// TestTokenFile: a token file only the user can read is taken; one the
// group or others can read, a short one or several words are refused.
func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tok := NewToken()
	if got, err := ReadTokenFile(write("ok", tok+"\n", 0o600)); err != nil || got != tok {
		t.Errorf("a 0600 token file: %q %v", got, err)
	}
	for name, c := range map[string]struct {
		content string
		mode    os.FileMode
		says    string
	}{
		"group": {tok, 0o640, "can be read by others (mode 0640); chmod 600"},
		"world": {tok, 0o604, "can be read by others (mode 0604)"},
		"short": {"hunter2", 0o600, "holds 7 characters; a token has at least 16"},
		"words": {"two words of a token", 0o600, "holds spaces"},
	} {
		if _, err := ReadTokenFile(write(name, c.content, c.mode)); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ReadTokenFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder: %v", err)
	}
	if os.Getuid() == 0 {
		// Not the user's own: root makes one of another owner.
		p := write("theirs", tok, 0o600)
		if err := os.Chown(p, 65534, 65534); err == nil {
			if _, err := ReadTokenFile(p); err == nil || !strings.Contains(err.Error(), "not to you") {
				t.Errorf("another user's file: %v", err)
			}
		}
	}
}

// TestTokenFileFIFO: a named pipe as --token-file is refused at once,
// before it is opened (opening it waited for a writer: canon mcp --http
// hung and never served); so are a link to one and a device.
func TestTokenFileFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, says string }{
		{fifo, "--token-file " + fifo + " is a named pipe (FIFO), not a regular file; canon reads only regular files"},
		{link, "--token-file " + link + " is a named pipe (FIFO), not a regular file"},
		{"/dev/null", "--token-file /dev/null is a character device, not a regular file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadTokenFile(c.path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s: %v, want %q", c.path, err, c.says)
			}
		case <-time.After(hang.Limit):
			// Let the open that waits for a writer go, then fail.
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("%s: hung: ReadTokenFile still waits after %v", c.path, hang.Limit)
		}
	}
}

// TestHTTPUnixSocket: unix:PATH serves through a socket made 0600 in a
// folder made 0700; a folder others can enter is refused.
func TestHTTPUnixSocket(t *testing.T) {
	dir, _ := mcpRepo(t)
	srv, err := New(context.Background(), dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sock := filepath.Join(t.TempDir(), "run", "canon.sock")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeHTTP(ctx, HTTP{Addr: "unix:" + sock, Ready: func(a string) { ready <- a }})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{sock: 0o600, filepath.Dir(sock): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %04o", p, fi.Mode().Perm(), err, want)
		}
	}
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	send := func(h http.Header) int {
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			req.Header[k] = v
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := send(nil); code != http.StatusOK {
		t.Errorf("initialize through the socket: %d", code)
	}
	if code := send(http.Header{"Origin": {"http://localhost"}}); code != http.StatusForbidden {
		t.Errorf("a browser's origin through the socket: %d", code)
	}
	// A second server on the same socket is refused while the first runs.
	if _, err := Listen("unix:" + sock); err == nil || !strings.Contains(err.Error(), "another server listens") {
		t.Errorf("a second server on the socket: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket stays after the server: %v", err)
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil { // whatever the umask made it
		t.Fatal(err)
	}
	if _, err := Listen("unix:" + filepath.Join(open, "canon.sock")); err == nil || !strings.Contains(err.Error(), "can be read by others (mode 0755); chmod 700") {
		t.Errorf("a socket in a folder others can enter: %v", err)
	}
}

// TestCheckAddr: loopback addresses and Unix sockets, nothing else.
func TestCheckAddr(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:7777": true, "localhost:7777": true, "[::1]:7777": true, "unix:/tmp/x/canon.sock": true,
		"0.0.0.0:7777": false, ":7777": false, "192.168.1.2:7777": false, "127.0.0.1": false, "unix:": false,
		"127.0.0.1.evil.example:80": false,
	} {
		if err := CheckAddr(addr); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

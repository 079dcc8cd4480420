package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/hang"
)

const testToken = "TESTTOKEN0123456789ABCDEF"

// testFiles is a small backlog: two tasks, one blocked by the other,
// under a feature, a decision that governs one, and a note with a
// dangling link.
var testFiles = map[string]string{
	"items/KB-FTR-0001.md": "---\nid: KB-FTR-0001\ntype: Feature\ntitle: Sessions\nstate: InProgress\n---\n# Goal\n\nLog in once.\n",
	"items/KB-TSK-0001.md": "---\nid: KB-TSK-0001\ntype: Task\ntitle: Issue session tokens\nstate: Ready\npriority: P1\nassignee: ada\nparent: KB-FTR-0001\nlabels: [auth, api]\n---\n# Context\n\nTokens for the **login** service, for [the feature](KB-FTR-0001.md#goal).\n",
	"items/KB-TSK-0002.md": "---\nid: KB-TSK-0002\ntype: Task\ntitle: Refresh tokens\nstate: Ready\nparent: KB-FTR-0001\ndecisions: [ADR-0001]\ntags: Backend, API\nlinks:\n  blocked_by: [KB-TSK-0001]\n---\n# Context\n\nRefresh before expiry.\n",
	"items/KB-TSK-0003.md": "---\nid: KB-TSK-0003\ntype: Task\ntitle: Old spike\nstate: Done\n---\nDone long ago.\n",
	"docs/ADR-0001.md":     "---\nid: ADR-0001\ntype: ADR\ntitle: Tokens are opaque\nstatus: Accepted\n---\n# Decision\n\nOpaque tokens.\n",
	"notes/link.md":        "# Links\n\n[gone](gone.md)\n",
}

// repoOf makes a repository of files, committed.
func repoOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		writeFile(t, dir, p, c)
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "backlog")
	return dir
}

func writeFile(t *testing.T, dir, p, c string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// testAddr is the address the in-process handler believes it serves.
const testAddr = "127.0.0.1:7474"

// site is a server on a repository and its handler.
type site struct {
	srv *Server
	h   http.Handler
}

func newSite(t *testing.T, dir string) *site {
	t.Helper()
	srv, err := New(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return &site{srv: srv, h: srv.Handler(testAddr, testToken)}
}

// req is one request and how it is sent.
type req struct {
	method, path, host, origin, cookie string
	// body is a URL-encoded form; csrf goes in the X-Canon-CSRF header.
	body, csrf string
}

// do sends r; by default a GET with the right Host and cookie.
func (s *site) do(t *testing.T, r req) *httptest.ResponseRecorder {
	t.Helper()
	if r.method == "" {
		r.method = http.MethodGet
	}
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	hr := httptest.NewRequest(r.method, "http://"+testAddr+r.path, body)
	if r.body != "" {
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if r.csrf != "" {
		hr.Header.Set(csrfHeader, r.csrf)
	}
	hr.Host = testAddr
	if r.host != "" {
		hr.Host = r.host
	}
	if r.origin != "" {
		hr.Header.Set("Origin", r.origin)
	}
	switch r.cookie {
	case "":
		hr.AddCookie(&http.Cookie{Name: "canon_serve_7474", Value: testToken})
	case "-":
	default:
		hr.AddCookie(&http.Cookie{Name: "canon_serve_7474", Value: r.cookie})
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, hr)
	return w
}

// get is a GET of path that must answer 200; its body.
func (s *site) get(t *testing.T, path string) string {
	t.Helper()
	w := s.do(t, req{path: path})
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, w.Code, w.Body)
	}
	return w.Body.String()
}

func mustContain(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

func TestRoutes(t *testing.T) {
	s := newSite(t, repoOf(t, testFiles))

	board := s.get(t, "/")
	mustContain(t, "the board", board, `data-state="InProgress"`, `data-state="Ready"`, `data-state="Done"`,
		"KB-TSK-0001", "Issue session tokens", "KB-TSK-0002", "blocked by KB-TSK-0001", `class="badge ready"`,
		`<span class="assignee">ada</span>`, "in <a href=\"/item?ref=", "KB-FTR-0001")
	// The configuration's order of states: Ready before InProgress
	// before Done.
	if r, p, d := strings.Index(board, `data-state="Ready"`), strings.Index(board, `data-state="InProgress"`), strings.Index(board, `data-state="Done"`); r >= p || p >= d {
		t.Errorf("columns out of order: Ready %d, InProgress %d, Done %d", r, p, d)
	}
	if strings.Contains(board, "ADR-0001") {
		t.Error("a decision is on the board")
	}
	filtered := s.get(t, "/?assignee=ada")
	mustContain(t, "the filtered board", filtered, "KB-TSK-0001")
	if strings.Contains(filtered, "KB-TSK-0002") {
		t.Error("the assignee filter kept an item of nobody")
	}
	// Labels, from labels (a list) or tags (one value of several), matched
	// without case.
	mustContain(t, "the label filter", board, `<option value="auth"`, `<option value="Backend"`, `<a class="label" href="/?label=auth">auth</a>`)
	if strings.Count(board, `<option value="API"`)+strings.Count(board, `<option value="api"`) != 1 {
		t.Error("a label spelt two ways is offered twice")
	}
	mustContain(t, "the chosen label", s.get(t, "/?label=backend"), `<option value="Backend" selected>`)
	for label, want := range map[string]string{"auth": "KB-TSK-0001", "backend": "KB-TSK-0002", "API": "KB-TSK-0001 KB-TSK-0002"} {
		f := s.get(t, "/?label="+label)
		var got []string
		for _, id := range []string{"KB-TSK-0001", "KB-TSK-0002", "KB-TSK-0003"} {
			if strings.Contains(f, `data-id="`+id+`"`) {
				got = append(got, id)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("label %s keeps %v, want %s", label, got, want)
		}
	}
	if f := s.get(t, "/?q=refresh&kind=task"); !strings.Contains(f, "KB-TSK-0002") || strings.Contains(f, `data-id="KB-TSK-0001"`) {
		t.Errorf("the text filter:\n%s", f)
	}

	item := s.get(t, "/item?ref=KB-TSK-0002")
	mustContain(t, "the item page", item, "Refresh tokens", "<h1>Context</h1>", "Refresh before expiry.",
		"<dt>state</dt><dd>Ready</dd>", `<svg class="graph"`, "blocked by →", "decisions", "parent", "ADR-0001",
		`href="/item?ref=`, "Edges in", "as here")
	mustContain(t, "the blocker's page", s.get(t, "/item?ref=KB-TSK-0001"), "→ blocks", "<strong>login</strong>")
	mustContain(t, "the feature's page", s.get(t, "/item?ref=KB-FTR-0001"), "children")
	mustContain(t, "a relative link", s.get(t, "/item?ref=KB-TSK-0001"), `<a href="/item?ref=items%2FKB-FTR-0001.md" rel="nofollow noreferrer">the feature</a>`)
	mustContain(t, "the context pack", s.get(t, "/context?ref=KB-TSK-0002"), "Context pack", "KB-TSK-0002", "KB-TSK-0001", "tokens")
	if w := s.do(t, req{path: "/context?ref=KB-NOPE-9"}); w.Code != http.StatusNotFound {
		t.Errorf("the context of an unknown item: %d", w.Code)
	}
	if w := s.do(t, req{path: "/item?ref=KB-NOPE-9"}); w.Code != http.StatusNotFound {
		t.Errorf("an unknown item: %d", w.Code)
	}

	mustContain(t, "the branches page", s.get(t, "/branches"), "Branches and worktrees", "overlays:")
	mustContain(t, "the problems page", s.get(t, "/problems"), "notes/link.md", "errors")
	mustContain(t, "the search page", s.get(t, "/search?q=refresh"), "KB-TSK-0002", "<mark>")
	mustContain(t, "an empty search", s.get(t, "/search"), "<h1>Search</h1>")

	js := s.do(t, req{path: "/static/app.js"})
	if js.Code != http.StatusOK || !strings.Contains(js.Header().Get("Content-Type"), "javascript") {
		t.Errorf("app.js: %d %s", js.Code, js.Header().Get("Content-Type"))
	}
	if w := s.do(t, req{path: "/static/app.css"}); w.Code != http.StatusOK || !strings.Contains(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("app.css: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	if w := s.do(t, req{path: "/nope"}); w.Code != http.StatusNotFound {
		t.Errorf("an unknown page: %d", w.Code)
	}
}

// TestEventsFollowCommits: an open page hears of a commit (the index
// moved) without asking, and the board it fetches then shows the move.
func TestEventsFollowCommits(t *testing.T) {
	dir := repoOf(t, testFiles)
	srv, err := New(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.hub.every = 20 * time.Millisecond
	hs := httptest.NewUnstartedServer(nil)
	hs.Config.Handler = srv.Handler(hs.Listener.Addr().String(), testToken)
	hs.Start()
	t.Cleanup(hs.Close)

	ctx, cancel := context.WithTimeout(context.Background(), hang.Limit)
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, http.MethodGet, hs.URL+"/events?token="+testToken, nil)
	jar := &cookieJar{}
	client := &http.Client{Jar: jar}
	resp, err := client.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, ct)
	}
	lines := bufio.NewScanner(resp.Body)
	var data string // the last event's
	next := func() string {
		t.Helper()
		ev := ""
		for lines.Scan() {
			line := lines.Text()
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				ev = e
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && ev != "" {
				data = d
				return ev
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return ""
	}
	if ev := next(); ev != "fresh" {
		t.Fatalf("first event %q, want fresh", ev)
	}
	// The board read before the commit is kept until the next sync.
	if _, ready, _ := strings.Cut(httpGet(t, client, hs.URL+"/"), `section class="column" data-state="Ready"`); !strings.Contains(ready, `data-id="KB-TSK-0001"`) {
		t.Fatal("KB-TSK-0001 is not ready before the commit")
	}
	writeFile(t, dir, "items/KB-TSK-0001.md", strings.Replace(testFiles["items/KB-TSK-0001.md"], "state: Ready", "state: Done", 1))
	gitIn(t, dir, "commit", "-qam", "done")
	head := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))
	// The page hears sync (an edit the listener took in may come first),
	// up to the one of the commit.
	for !strings.Contains(data, `"indexed":"`+head+`"`) {
		if ev := next(); ev != "sync" {
			t.Fatalf("after a commit: event %q, want sync", ev)
		}
	}
	// The board's base was read at the commit before the page heard of
	// it: the page's fetch finds it kept.
	if _, err := srv.call(ctx, func(context.Context, *gitsync.Session, Fresh) error {
		if srv.kept == nil || !strings.HasSuffix(srv.kept.mark, " "+head) {
			t.Error("the base kept after the commit's sync event is not the commit's")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	board := httpGet(t, client, hs.URL+"/")
	_, done, ok := strings.Cut(board, `section class="column" data-state="Done"`)
	if !ok || !strings.Contains(done, "KB-TSK-0001") {
		t.Errorf("the board after the commit does not show KB-TSK-0001 done:\n%s", board)
	}
}

// cookieJar keeps the one cookie the server sets (the token's), whatever
// the URL.
type cookieJar struct{ c []*http.Cookie }

func (j *cookieJar) SetCookies(_ *url.URL, cs []*http.Cookie) { j.c = append(j.c, cs...) }
func (j *cookieJar) Cookies(*url.URL) []*http.Cookie          { return j.c }

func httpGet(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", u, resp.StatusCode, b.String())
	}
	return b.String()
}

func TestLocalLink(t *testing.T) {
	for _, c := range []struct{ dest, want string }{
		{"KB-TSK-0001.md", "/item?ref=items%2FKB-TSK-0001.md"},
		{"../docs/ADR-0001.md#decision", "/item?ref=docs%2FADR-0001.md"},
		{"./sub/My%20Note.md", "/item?ref=items%2Fsub%2FMy+Note.md"},
		{"../../outside.md", "../../outside.md"},
		{"https://example.com/a.md", "https://example.com/a.md"},
		{"javascript:alert(1)//.md", "javascript:alert(1)//.md"},
		{"/abs/a.md", "/abs/a.md"},
		{"#section", "#section"},
		{"picture.png", "picture.png"},
	} {
		if got := localLink(c.dest, "items/KB-TSK-0002.md"); got != c.want {
			t.Errorf("localLink(%q) = %q, want %q", c.dest, got, c.want)
		}
	}
}

// TestColumnPages: a column shows columnCap cards, says how many more,
// and links to the same board showing columnCap more, up to maxColumn.
func TestColumnPages(t *testing.T) {
	cols := func(n int) map[string]*Column {
		c := &Column{State: "Ready"}
		for i := range n {
			c.Cards = append(c.Cards, Card{ID: fmt.Sprintf("T-%04d", i)})
		}
		return map[string]*Column{"Ready": c}
	}
	got := orderColumns(cols(columnCap+50), config.States{Open: []string{"Ready"}}, columnCap)
	if len(got[0].Cards) != columnCap || got[0].More != 50 || got[0].Cards[0].ID != "T-0000" {
		t.Fatalf("a column of %d: %d cards, %d more", columnCap+50, len(got[0].Cards), got[0].More)
	}
	q := url.Values{"label": {"a b"}}
	if u := moreURL(q, got, columnCap); u != "/?label=a+b&limit=200" || q.Get("limit") != "" {
		t.Errorf("show more: %q (the query became %v)", u, q)
	}
	if u := moreURL(q, got, maxColumn); u != "" {
		t.Errorf("past maxColumn: %q", u)
	}
	if u := moreURL(q, orderColumns(cols(10), config.States{}, columnCap), columnCap); u != "" {
		t.Errorf("nothing more to show: %q", u)
	}
}

// TestBoardWithoutStates: a repository whose documents carry no state (an
// RFC series such as rust-lang/rfcs) gets a board that says why it is
// empty and where to look instead, not a blank page.
func TestBoardWithoutStates(t *testing.T) {
	s := newSite(t, repoOf(t, map[string]string{
		"text/0001-private-fields.md": "# Private fields\n\nSome text.\n",
		"text/0002-rfc-process.md":    "# The RFC process\n\nMore text.\n",
	}))
	mustContain(t, "a board of no states", s.get(t, "/"), "No work item with a state: no document here carries a state field",
		`<a href="/branches">Branches</a> shows what each branch and worktree changes`)
	mustContain(t, "a filter that keeps nothing", s.get(t, "/?q=zzz"), "No work item with a state matches the filter.")
}

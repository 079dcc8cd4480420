package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const ownOrigin = "http://127.0.0.1:7474"

// answer reads a move's or a claim's JSON answer.
func answer(t *testing.T, body string) written {
	t.Helper()
	var w written
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	return w
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestWriteGuard: a move is refused, and nothing written, without the
// cookie, without the session's form token or with a wrong one, from
// another origin or none, and by any method but POST.
func TestWriteGuard(t *testing.T) {
	dir := repoOf(t, testFiles)
	s := newSite(t, dir)
	if s.srv.csrf == "" || !strings.Contains(s.get(t, "/"), `<meta name="canon-csrf" content="`+s.srv.csrf+`">`) {
		t.Fatalf("the page does not carry the form token %q", s.srv.csrf)
	}
	form := "ref=KB-TSK-0002&state=Done"
	tok := s.srv.csrf
	for _, c := range []struct {
		name string
		r    req
		code int
	}{
		{"no cookie", req{cookie: "-", csrf: tok, origin: ownOrigin}, http.StatusForbidden},
		{"a wrong cookie", req{cookie: "WRONGTOKEN0123456789ABC", csrf: tok, origin: ownOrigin}, http.StatusForbidden},
		{"the token in the URL, no cookie", req{path: "/move?token=" + testToken, cookie: "-", csrf: tok, origin: ownOrigin}, http.StatusForbidden},
		{"no form token", req{origin: ownOrigin}, http.StatusForbidden},
		{"a wrong form token", req{csrf: tok[:len(tok)-1] + "x", origin: ownOrigin}, http.StatusForbidden},
		{"the cookie's token as the form token", req{csrf: testToken, origin: ownOrigin}, http.StatusForbidden},
		{"a wrong form token in the form", req{body: form + "&csrf=nope", origin: ownOrigin}, http.StatusForbidden},
		{"the form token in the URL", req{path: "/move?csrf=" + url.QueryEscape(tok), origin: ownOrigin}, http.StatusForbidden},
		{"another origin", req{csrf: tok, origin: "http://evil.example"}, http.StatusForbidden},
		{"another port's origin", req{csrf: tok, origin: "http://127.0.0.1:9999"}, http.StatusForbidden},
		{"no origin", req{csrf: tok}, http.StatusForbidden},
		{"a rebound host", req{csrf: tok, origin: ownOrigin, host: "evil.example:7474"}, http.StatusForbidden},
		{"GET", req{method: http.MethodGet, path: "/move?" + form}, http.StatusMethodNotAllowed},
		{"PUT", req{method: http.MethodPut, csrf: tok, origin: ownOrigin}, http.StatusMethodNotAllowed},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			if r.method == "" {
				r.method = http.MethodPost
			}
			if r.path == "" {
				r.path = "/move"
			}
			if r.body == "" && r.method != http.MethodGet {
				r.body = form
			}
			w := s.do(t, r)
			if w.Code != c.code {
				t.Fatalf("%d, want %d\n%s", w.Code, c.code, w.Body)
			}
			if strings.Contains(w.Body.String(), tok) || strings.Contains(w.Body.String(), "KB-TSK") {
				t.Errorf("the refusal leaks: %s", w.Body)
			}
			securityHeaders(t, w.Header())
		})
	}
	if got := readFile(t, dir, "items/KB-TSK-0002.md"); got != testFiles["items/KB-TSK-0002.md"] {
		t.Errorf("a refused move wrote:\n%s", got)
	}
	// With the token in the header, or in the form, it moves.
	if w := s.do(t, req{method: http.MethodPost, path: "/move", body: form + "&csrf=" + url.QueryEscape(tok), origin: ownOrigin}); w.Code != http.StatusOK {
		t.Fatalf("a move with the form token in the form: %d %s", w.Code, w.Body)
	}
}

// TestMoveAndClaim: the board's moves and claims are canon set's and canon
// claim's: a minimal edit of the item's file, and canon's refusals (a
// state the repository does not use, an item done or taken on another
// worktree) as its sentences, with nothing written.
func TestMoveAndClaim(t *testing.T) {
	dir := repoOf(t, testFiles)
	s := newSite(t, dir)
	post := func(path, form string) (int, written) {
		t.Helper()
		w := s.do(t, req{method: http.MethodPost, path: path, body: form, csrf: s.srv.csrf, origin: ownOrigin})
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("POST %s: %d %s\n%s", path, w.Code, ct, w.Body)
		}
		return w.Code, answer(t, w.Body.String())
	}

	code, a := post("/move", "ref=KB-TSK-0002&state=inprogress")
	if code != http.StatusOK || !a.OK || !strings.Contains(a.Text, "KB-TSK-0002: state → InProgress") {
		t.Fatalf("the move: %d %+v", code, a)
	}
	want := strings.Replace(testFiles["items/KB-TSK-0002.md"], "state: Ready", "state: InProgress", 1)
	if got := readFile(t, dir, "items/KB-TSK-0002.md"); got != want {
		t.Errorf("the move wrote\n%s\nwant\n%s", got, want)
	}
	_, inProgress, _ := strings.Cut(s.get(t, "/"), `<section class="column" data-state="InProgress">`)
	if col, _, _ := strings.Cut(inProgress, "</section>"); !strings.Contains(col, `data-id="KB-TSK-0002"`) {
		t.Errorf("the board does not show the move:\n%s", col)
	}

	for _, c := range []struct{ path, form, says string }{
		{"/move", "ref=KB-TSK-0001&state=Nope", `Nope is not a state the repository's task documents are in`},
		{"/move", "ref=KB-TSK-0001&state=", "name the state to move it to"},
		{"/move", "ref=KB-NOPE-1&state=Done", "KB-NOPE-1"},
		{"/claim", "ref=KB-TSK-0003&as=bob", "KB-TSK-0003 is done already"},
	} {
		before := readFile(t, dir, "items/KB-TSK-0001.md") + readFile(t, dir, "items/KB-TSK-0003.md")
		code, a := post(c.path, c.form)
		if code != http.StatusUnprocessableEntity || a.OK || !strings.Contains(a.Text, c.says) || strings.HasPrefix(a.Text, "bad item edit") {
			t.Errorf("%s %s: %d %+v, want a refusal saying %q", c.path, c.form, code, a, c.says)
		}
		if after := readFile(t, dir, "items/KB-TSK-0001.md") + readFile(t, dir, "items/KB-TSK-0003.md"); after != before {
			t.Errorf("%s %s wrote though refused", c.path, c.form)
		}
	}

	// Taken on another worktree: refused with where.
	wt := filepath.Join(t.TempDir(), "agent-a")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "agent-a", wt)
	writeFile(t, wt, "items/KB-TSK-0001.md", strings.Replace(testFiles["items/KB-TSK-0001.md"], "state: Ready", "state: InProgress", 1))
	gitIn(t, wt, "commit", "-qam", "take KB-TSK-0001")
	if code, a := post("/claim", "ref=KB-TSK-0001&as=bob"); code != http.StatusUnprocessableEntity || !strings.Contains(a.Text, "KB-TSK-0001 is taken on") || !strings.Contains(a.Text, "agent-a") {
		t.Errorf("a claim of an item taken elsewhere: %d %+v", code, a)
	}

	// A claim, committed alone with canon serve --commit.
	s.srv.commit = true
	code, a = post("/claim", "ref=KB-FTR-0001&as=bob")
	if code != http.StatusOK || a.Commit == "" || !strings.Contains(a.Text, "assignee → bob") {
		t.Fatalf("the claim: %d %+v", code, a)
	}
	out, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%s", "--name-only").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "KB-FTR-0001: assignee bob") || !strings.Contains(string(out), "(canon claim)") ||
		strings.Contains(string(out), "KB-TSK-0002.md") {
		t.Errorf("the claim's commit: %v\n%s", err, out)
	}
}

// TestMoveWritesTheStateField: a repository that keeps its state in
// status: (Backlog.md's) gets its status moved, not a second field.
func TestMoveWritesTheStateField(t *testing.T) {
	task := "---\nid: task-1\ntitle: One\nstatus: To Do\nassignee: []\n---\nBody.\n"
	dir := repoOf(t, map[string]string{
		"backlog/tasks/task-1 - One.md": task,
		"backlog/tasks/task-2 - Two.md": "---\nid: task-2\ntitle: Two\nstatus: In Progress\nassignee: []\n---\n",
	})
	s := newSite(t, dir)
	w := s.do(t, req{method: http.MethodPost, path: "/move", body: "ref=task-1&state=in+progress", csrf: s.srv.csrf, origin: ownOrigin})
	if w.Code != http.StatusOK {
		t.Fatalf("the move: %d %s", w.Code, w.Body)
	}
	if got, want := readFile(t, dir, "backlog/tasks/task-1 - One.md"), strings.Replace(task, "status: To Do", "status: In Progress", 1); got != want {
		t.Errorf("the move wrote\n%s\nwant\n%s", got, want)
	}
}

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/hang"
)

// mcpRepo makes a small backlog repository and a server on it, and
// connects the SDK's client in process.
func mcpRepo(t *testing.T) (string, *mcp.ClientSession) {
	t.Helper()
	dir := mcpDir(t)
	return dir, connect(t, dir)
}

// mcpDir is mcpRepo's repository.
func mcpDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"items/KB-TSK-0001.md": "---\nid: KB-TSK-0001\ntype: Task\ntitle: Issue session tokens\nstate: Ready\npriority: P1\n---\n# Context\n\nTokens for the login service.\n",
		"items/KB-TSK-0002.md": "---\nid: KB-TSK-0002\ntype: Task\ntitle: Refresh tokens\nstate: Ready\nlinks:\n  blocked_by: [KB-TSK-0001]\n---\n# Context\n\nRefresh before expiry.\n",
		"notes/link.md":        "# Links\n\n[gone](gone.md)\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "backlog")
	return dir
}

// heard waits until the server has heard of n file-system events since
// its last answer (an edit the test made; the kernel tells of it at once,
// the listener folds it in on its own goroutine).
func heard(t *testing.T, srv *Server, n int) {
	t.Helper()
	hang.Until(t, "the server hears of the edit", func() bool { return srv.listen.Pending() >= n })
}

// connect makes a server on the repository in dir and connects the SDK's
// client to it in process; both close when the test ends.
func connect(tb testing.TB, dir string) *mcp.ClientSession {
	tb.Helper()
	_, cs := serve(tb, dir)
	return cs
}

// serve is connect that also returns the server.
func serve(tb testing.TB, dir string) (*Server, *mcp.ClientSession) {
	tb.Helper()
	srv, err := New(context.Background(), dir, "test")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.server.Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return srv, cs
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

// call runs a tool and decodes its structured result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !res.IsError {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, data)
		}
	}
	return res
}

func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPTools(t *testing.T) {
	dir := mcpDir(t)
	srv, cs := serve(t, dir)

	var search struct {
		Hits []struct {
			ID, Path string
		}
		Freshness Freshness
	}
	r := call(t, cs, "search", map[string]any{"query": "tokens"}, &search)
	if len(search.Hits) != 2 || search.Hits[0].Path == "" {
		t.Fatalf("search: %+v\n%s", search, textOf(r))
	}
	head := search.Freshness.Head
	if search.Freshness.IndexedCommit != head || !search.Freshness.WasBehind || search.Freshness.WorkingTreeDiffers != 0 {
		t.Errorf("first answer's freshness: %+v", search.Freshness)
	}
	if !strings.Contains(textOf(r), "(index at ") {
		t.Errorf("text rendering lacks freshness: %s", textOf(r))
	}

	var show struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	call(t, cs, "show", map[string]any{"ref": "KB-TSK-0002"}, &show)
	if show.ID != "KB-TSK-0002" || show.Title != "Refresh tokens" {
		t.Errorf("show: %+v", show)
	}
	// Arguments the CLI refuses are refused here too, with what to give.
	for _, bad := range []struct {
		tool string
		args map[string]any
		says string
	}{
		{"search", map[string]any{"query": "tokens", "limit": -5}, "limit is -5; give a positive number"},
		{"context", map[string]any{"query": "tokens", "budget": -1}, "budget is -1"},
		{"context", map[string]any{"for": "KB-TSK-0001", "query": "tokens"}, "for builds the pack of one task; give it without a query and without seeds"},
		{"neighbors", map[string]any{"ref": "KB-TSK-0001", "depth": 9}, "depth is at most 4"},
		{"check", map[string]any{"paths": []string{"notes/link.md"}, "all": true}, "give either all: true or paths, not both"},
		{"check", map[string]any{"paths": []string{"notes/link.md"}, "staged": true}, "check takes one of"},
		{"ready", map[string]any{"limit": -1}, "limit is -1"},
	} {
		if r := call(t, cs, bad.tool, bad.args, nil); !r.IsError || !strings.Contains(textOf(r), bad.says) {
			t.Errorf("%s %v: %v %s", bad.tool, bad.args, r.IsError, textOf(r))
		}
	}
	if r := call(t, cs, "show", map[string]any{"ref": "NOPE"}, nil); !r.IsError || !strings.Contains(textOf(r), `no document is called "NOPE"`) {
		t.Errorf("show of nothing: %v %s", r.IsError, textOf(r))
	}

	var ready struct {
		Items []struct{ ID string } `json:"ready"`
	}
	var blocked struct {
		Items []struct{ ID string } `json:"blocked"`
	}
	call(t, cs, "ready", nil, &ready)
	call(t, cs, "blocked", nil, &blocked)
	if len(ready.Items) != 1 || ready.Items[0].ID != "KB-TSK-0001" || len(blocked.Items) != 1 || blocked.Items[0].ID != "KB-TSK-0002" {
		t.Errorf("ready %+v, blocked %+v", ready, blocked)
	}
	// The tools answer in canon ready's and canon blocked's words (one
	// use case each, graph.Ready and graph.Blocked), the limit included,
	// their hints in the tools' words, ready's with the claim it offers;
	// the freshness line follows.
	var limited struct {
		Truncated    int `json:"truncated"`
		BlockedCount int `json:"blocked_count"`
	}
	res := call(t, cs, "ready", map[string]any{"limit": 1}, &limited)
	if want := "KB-TSK-0001  P1  Ready  Issue session tokens  [task]\n1 ready, 1 blocked (the blocked tool)\ntake one: item_claim with its item and as: your name (commit: true lets other worktrees see it)\n"; !strings.HasPrefix(textOf(res), want) || limited.Truncated != 0 || limited.BlockedCount != 1 {
		t.Errorf("ready says %q %+v, want %q", textOf(res), limited, want)
	}
	res = call(t, cs, "blocked", map[string]any{"all": true}, nil)
	if want := "KB-TSK-0002  -  Ready  Refresh tokens  [task]\n    waits for KB-TSK-0001 (Ready): Issue session tokens  [blocked_by]\n1 blocked, 1 ready (the ready tool)\n"; !strings.HasPrefix(textOf(res), want) {
		t.Errorf("blocked says %q, want %q", textOf(res), want)
	}
	if r := call(t, cs, "ready", map[string]any{"limit": 2, "all": true}, nil); !r.IsError || !strings.Contains(textOf(r), "limit and all say different things") {
		t.Errorf("limit and all: %v %s", r.IsError, textOf(r))
	}

	var chk struct {
		Summary  struct{ Errors int }
		Findings []struct{ Rule string }
	}
	call(t, cs, "check", map[string]any{"all": true}, &chk)
	if chk.Summary.Errors != 1 || len(chk.Findings) != 2 || chk.Findings[0].Rule != "asymmetric-block" || chk.Findings[1].Rule != "broken-link" {
		t.Errorf("check: %+v", chk)
	}

	var ctxOut struct{ Entries []any }
	call(t, cs, "context", map[string]any{"seeds": []string{"KB-TSK-0002"}, "budget": 2000}, &ctxOut)
	if len(ctxOut.Entries) != 2 {
		t.Errorf("context: %+v", ctxOut)
	}
	call(t, cs, "context", map[string]any{"seeds": []string{"KB-TSK-0002"}, "budget": 2000, "generated": true}, &ctxOut)
	if len(ctxOut.Entries) != 2 {
		t.Errorf("context with generated: %+v", ctxOut)
	}

	// A commit elsewhere: the next answer catches up first and says so; an
	// edit not synced is taken in first, and counted.
	if err := os.WriteFile(filepath.Join(dir, "items/KB-TSK-0003.md"), []byte("---\nid: KB-TSK-0003\ntitle: Revoke tokens\nstate: Ready\n---\n# Tokens\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "KB-TSK-0003")
	if err := os.WriteFile(filepath.Join(dir, "items/KB-TSK-0001.md"), []byte("---\nid: KB-TSK-0001\ntitle: edited\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heard(t, srv, 1)
	var st struct {
		Documents int
		Freshness Freshness
	}
	res = call(t, cs, "status", nil, &st)
	if st.Documents != 4 || !st.Freshness.WasBehind || st.Freshness.Head == head || st.Freshness.IndexedCommit != st.Freshness.Head ||
		st.Freshness.WorkingTreeDiffers != 0 || st.Freshness.EditsTaken != 1 || !strings.Contains(textOf(res), "took in 1 file edited since the last answer") {
		t.Errorf("after a commit and an edit: %+v\n%s", st, textOf(res))
	}
	var edited struct{ Title string }
	if call(t, cs, "show", map[string]any{"ref": "KB-TSK-0001"}, &edited); edited.Title != "edited" {
		t.Errorf("the edit is not in the index: %+v", edited)
	}
	call(t, cs, "status", nil, &st)
	if st.Freshness.WasBehind {
		t.Errorf("a second answer caught up again: %+v", st.Freshness)
	}

	// The staged check reports only what the staged change adds.
	if err := os.WriteFile(filepath.Join(dir, "notes/new.md"), []byte("# New\n\n[nowhere](nowhere.md)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "notes/new.md")
	call(t, cs, "check", map[string]any{"staged": true}, &chk)
	if chk.Summary.Errors != 1 || len(chk.Findings) != 1 || chk.Findings[0].Rule != "broken-link" {
		t.Errorf("staged check: %+v", chk)
	}
}

// TestMCPSeveralServers: servers on one repository, called at once right
// after a commit (each catches up), answer without an error.
func TestMCPSeveralServers(t *testing.T) {
	dir, first := mcpRepo(t)
	call(t, first, "status", nil, nil)
	var clients []*mcp.ClientSession
	for range 4 {
		cs := connect(t, dir)
		clients = append(clients, cs)
	}
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, "items", fmt.Sprintf("KB-TSK-01%02d.md", i)), []byte(fmt.Sprintf("---\nid: KB-TSK-01%02d\ntitle: More tokens %d\n---\n# Tokens\n", i, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-qm", fmt.Sprint("more ", i))
		errs := make(chan string, len(clients)*2)
		var wg sync.WaitGroup
		for _, cs := range clients {
			for _, tool := range []string{"search", "ready"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var args map[string]any
					if tool == "search" {
						args = map[string]any{"query": "tokens"}
					}
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
					switch {
					case err != nil:
						errs <- err.Error()
					case res.IsError:
						errs <- textOf(res)
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("round %d: %s", i, e)
		}
	}
}

// TestMCPToolListIsSmall: the whole tools/list answer stays under 3,100
// tokens (characters / 4), so that connecting canon costs an agent little
// (2,500 until the write path's three tools, issue 47, took 480 more;
// 3,000 until item_new took about 90 once the others were trimmed).
func TestMCPToolListIsSmall(t *testing.T) {
	_, cs := mcpRepo(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	if tokens := len(data) / 4; tokens > 3100 {
		t.Errorf("tools/list is %d tokens (%d tools), over 3,100", tokens, len(res.Tools))
	}
	writes := map[string]bool{"workset_new": true, "note": true, "item_new": true, "item_set": true, "item_claim": true, "item_log": true}
	for _, tool := range res.Tools {
		switch {
		case tool.Annotations == nil:
			t.Errorf("%s has no annotations", tool.Name)
		case tool.Name == "promote":
			if tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint == nil || !*tool.Annotations.DestructiveHint {
				t.Errorf("promote lacks the destructive hint: %+v", tool.Annotations)
			}
		case writes[tool.Name] && (tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint == nil || *tool.Annotations.DestructiveHint):
			t.Errorf("%s writes but not destructively: %+v", tool.Name, tool.Annotations)
		case !writes[tool.Name] && !tool.Annotations.ReadOnlyHint:
			t.Errorf("%s lacks the read-only hint", tool.Name)
		}
	}
	t.Logf("tools/list: %d tools, %d bytes, about %d tokens", len(res.Tools), len(data), len(data)/4)
}

// TestMCPWorksets: a workset made, notes appended atomically (a stale
// expect refused), read back as resources; prompts from the templates.
func TestMCPWorksets(t *testing.T) {
	dir, cs := mcpRepo(t)
	ctx := context.Background()
	var made struct {
		Name string
		Docs int
	}
	call(t, cs, "workset_new", map[string]any{"name": "tokens", "seeds": []string{"KB-TSK-0002"}, "agent": "test"}, &made)
	if made.Name != "tokens" || made.Docs != 2 {
		t.Fatalf("workset_new: %+v", made)
	}
	var n1, n2 struct {
		Note struct {
			Line      string
			NotesHash string `json:"notes_hash"`
		}
	}
	call(t, cs, "note", map[string]any{"workset": "tokens", "target": "KB-TSK-0002", "kind": "decision", "text": "refresh at 80% of the lifetime"}, &n1)
	if n1.Note.Line != "- [KB-TSK-0002] decision: refresh at 80% of the lifetime" {
		t.Errorf("note: %+v", n1)
	}
	call(t, cs, "note", map[string]any{"workset": "tokens", "target": "KB-TSK-0001", "text": "tokens are opaque", "expect": n1.Note.NotesHash}, &n2)
	if r := call(t, cs, "note", map[string]any{"workset": "tokens", "target": "KB-TSK-0001", "text": "late", "expect": n1.Note.NotesHash}, nil); !r.IsError || !strings.Contains(textOf(r), "notes.md changed since you read it") {
		t.Errorf("a stale expect: %v %s", r.IsError, textOf(r))
	}
	if r := call(t, cs, "note", map[string]any{"workset": "tokens", "target": "", "text": "x"}, nil); !r.IsError {
		t.Error("a note without a target was taken")
	}
	var show struct {
		Findings []struct{ Kind, Text string }
	}
	call(t, cs, "workset_show", map[string]any{"name": "tokens"}, &show)
	if len(show.Findings) != 2 || show.Findings[0].Kind != "decision" || show.Findings[1].Kind != "worklog" {
		t.Errorf("the notes as promote reads them: %+v", show)
	}

	var wc struct{ Entries []any }
	call(t, cs, "workset_context", map[string]any{"name": "tokens", "budget": 2000}, &wc)
	if len(wc.Entries) != 2 {
		t.Errorf("workset_context: %+v", wc)
	}

	// promote: a diff first, then the writes.
	var dry, done struct {
		DryRun  bool     `json:"dry_run"`
		Diff    string   `json:"diff"`
		Written []string `json:"written"`
	}
	call(t, cs, "promote", map[string]any{"workset": "tokens", "agent": "test"}, &dry)
	if !dry.DryRun || !strings.Contains(dry.Diff, "[agent=test] refresh at 80% of the lifetime") {
		t.Errorf("promote dry run: %+v", dry)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "items/KB-TSK-0002.md")); strings.Contains(string(data), "80%") {
		t.Fatal("a dry run wrote")
	}
	res := call(t, cs, "promote", map[string]any{"workset": "tokens", "agent": "test", "apply": true}, &done)
	if len(done.Written) != 2 {
		t.Errorf("promote: %+v", done)
	}
	// The text is canon promote's: what was written and what canon check
	// says of it, not a text of the server's own.
	if got := textOf(res); !strings.Contains(got, "wrote 2 files; nothing is committed. To commit them:\n  git add ") || !strings.Contains(got, "\ncanon check: ") {
		t.Errorf("promote's text is not canon promote's:\n%s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "items/KB-TSK-0002.md")); !strings.Contains(string(data), "[agent=test] refresh at 80% of the lifetime") {
		t.Errorf("promote wrote:\n%s", data)
	}

	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "canon://workset/tokens/notes"})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "- [KB-TSK-0001] tokens are opaque") {
		t.Errorf("notes resource: %v %+v", err, rr)
	}
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "canon://doc/KB-TSK-0001"})
	if err != nil || !strings.HasPrefix(rr.Contents[0].Text, "---\nid: KB-TSK-0001\n") {
		t.Errorf("doc resource: %v %+v", err, rr)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "canon://doc/NOPE"}); err == nil {
		t.Error("a resource of no document was read")
	}
	for _, uri := range []string{"canon://doc/notes/link.md", "canon://doc/notes%2Flink.md"} { // by path: slashes as they are, or escaped
		rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || !strings.HasPrefix(rr.Contents[0].Text, "# Links\n") {
			t.Errorf("%s: %v %+v", uri, err, rr)
		}
	}

	ps, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(ps.Prompts) != 5 {
		t.Fatalf("prompts: %v %d", err, len(ps.Prompts))
	}
	gp, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "workflow-resume", Arguments: map[string]string{"workset": "tokens"}})
	if err != nil || !strings.Contains(gp.Messages[0].Content.(*mcp.TextContent).Text, "KB-TSK-0002: Refresh tokens") {
		t.Errorf("workflow-resume prompt: %v %+v", err, gp)
	}
}

// TestMCPOutputSchemas calls every tool and checks each answer against
// the output schema tools/list gives for it: the server marshals its
// results itself and does not check them at run time (ADR-0023).
func TestMCPOutputSchemas(t *testing.T) {
	_, cs := mcpRepo(t)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"workset_list", nil},
		{"search", map[string]any{"query": "tokens"}},
		{"search", map[string]any{"query": "nothingmatches"}},
		{"search", map[string]any{"query": "tokens", "kind": "adr"}},
		{"neighbors", map[string]any{"ref": "notes/link.md"}},
		{"ready", map[string]any{"kinds": []string{"adr"}}},
		{"blocked", map[string]any{"kinds": []string{"adr"}}},
		{"check", map[string]any{"staged": true}},
		{"check", map[string]any{"paths": []string{"items/KB-TSK-0001.md"}}},
		{"show", map[string]any{"ref": "KB-TSK-0002", "text": true}},
		{"show", map[string]any{"ref": "KB-TSK-0002", "text": true, "budget": 1}},
		{"context", map[string]any{"query": "tokens", "budget": 400}},
		{"context", map[string]any{"seeds": []string{"KB-TSK-0002"}}},
		{"neighbors", map[string]any{"ref": "KB-TSK-0002"}},
		{"ready", nil},
		{"blocked", nil},
		{"claims", nil},
		{"id_next", map[string]any{"kind": "task"}},
		{"check", map[string]any{"all": true}},
		{"status", nil},
		{"query_run", map[string]any{"template": "task-context", "seeds": []string{"KB-TSK-0002"}}},
		{"workset_new", map[string]any{"name": "w1", "seeds": []string{"KB-TSK-0001"}}},
		{"workset_list", nil},
		{"workset_show", map[string]any{"name": "w1"}},
		{"workset_context", map[string]any{"name": "w1"}},
		{"workset_resume", map[string]any{"name": "w1"}},
		{"note", map[string]any{"workset": "w1", "target": "KB-TSK-0001", "text": "tokens expire after an hour"}},
		{"promote", map[string]any{"workset": "w1"}},
		{"item_set", map[string]any{"item": "KB-TSK-0002", "set": []string{"priority=P2"}, "dry_run": true}},
		{"item_new", map[string]any{"kind": "task", "title": "Rotate tokens", "parent": "KB-TSK-0001", "dry_run": true}},
		{"item_claim", map[string]any{"item": "KB-TSK-0002", "as": "agent"}},
		{"item_log", map[string]any{"item": "KB-TSK-0002", "text": "started"}},
		{"item_log", map[string]any{"item": "KB-TSK-0002", "text": "finished", "done": true}},
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		data, _ := json.Marshal(tool.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if schemas[tool.Name], err = schema.Resolve(nil); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
	}
	called := map[string]bool{}
	for _, c := range calls {
		res := call(t, cs, c.tool, c.args, nil)
		if res.IsError {
			t.Errorf("%s %v: %s", c.tool, c.args, textOf(res))
			continue
		}
		if err := schemas[c.tool].Validate(res.StructuredContent); err != nil {
			t.Errorf("%s %v: the answer does not fit its schema: %v", c.tool, c.args, err)
		}
		called[c.tool] = true
	}
	for name := range schemas {
		if !called[name] {
			t.Errorf("tool %s is not called here", name)
		}
	}
}

// TestDriftDue: a background count of the drift waits driftEvery, and
// driftSpacing times as long as the last count took when that is longer.
func TestDriftDue(t *testing.T) {
	for _, c := range []struct {
		name      string
		ago, took time.Duration
		due       bool
	}{
		{"fresh", time.Second, 50 * time.Millisecond, false},
		{"old enough", 2100 * time.Millisecond, 50 * time.Millisecond, true},
		{"a slow walk waits longer", 3 * time.Second, 500 * time.Millisecond, false},
		{"then it is due", 5100 * time.Millisecond, 500 * time.Millisecond, true},
	} {
		m := &Server{driftAt: time.Now().Add(-c.ago), driftTook: c.took}
		if got := m.driftDue(); got != c.due {
			t.Errorf("%s: due %v, want %v", c.name, got, c.due)
		}
	}
}

// TestNewWaitEndsWithContext: canon mcp waiting for another process's
// schema migration of the index stops at Ctrl-C (its context), as every
// command's open does.
func TestNewWaitEndsWithContext(t *testing.T) {
	// An index made and let go: a server would take the working tree in
	// at once, under the index's lock.
	dir := mcpDir(t)
	s, err := gitsync.Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	indextest.MigrationHeld(t, filepath.Join(dir, ".git", "canon", "index.db"))
	indextest.EndsWithContext(t, func(ctx context.Context) error {
		srv, err := New(ctx, dir, "test")
		if err == nil {
			srv.Close()
		}
		return err
	})
}

// TestMCPListenerRescopes: a .gitignore that stops ignoring a folder
// brings its documents into the next answer (the ignore rules read
// again), and later edits to them too.
func TestMCPListenerRescopes(t *testing.T) {
	dir := mcpDir(t)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("drafts/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "drafts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "drafts", "N-9.md"), []byte("---\nid: N-9\ntitle: Draft\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, cs := serve(t, dir)
	if res := call(t, cs, "show", map[string]any{"ref": "N-9"}, nil); !res.IsError {
		t.Fatalf("an ignored draft was shown: %s", textOf(res))
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heard(t, srv, 1)
	var shown struct{ Title string }
	if res := call(t, cs, "show", map[string]any{"ref": "N-9"}, &shown); res.IsError || shown.Title != "Draft" {
		t.Fatalf("after the .gitignore let it in: %s %+v", textOf(res), shown)
	}
	if err := os.WriteFile(filepath.Join(dir, "drafts", "N-9.md"), []byte("---\nid: N-9\ntitle: Draft two\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heard(t, srv, 1)
	if call(t, cs, "show", map[string]any{"ref": "N-9"}, &shown); shown.Title != "Draft two" {
		t.Errorf("an edit of it afterwards: %+v", shown)
	}
}

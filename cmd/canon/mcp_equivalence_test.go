package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/cmd/internal/mcpserver"
)

// One truth per action (ADR-0022): every MCP tool calls the use case of
// its command and answers with its result type, so that an agent and a
// person asking the same thing get the same answer. mcpCases is the table
// TestMCPAnswersAsCLI runs, in order, on two copies of the demo
// repository: each tool on one, its command with --json on the other.
//
// To add a tool: add a case (tool, args, the command line) where it fits
// in the order (a case may use what an earlier one made), or, when the
// tool has no command, a line in noCommand saying why. The test fails for
// a tool of tools/list with neither.
var mcpCases = []mcpCase{
	{tool: "search", args: obj{"query": "token refresh", "limit": 5}, cli: "search token refresh --limit 5", toolOnly: []string{"truncated"}},
	{tool: "search", args: obj{"query": "webhook", "kind": "task"}, cli: "search webhook --kind task", toolOnly: []string{"truncated"}},
	{tool: "show", args: obj{"ref": "KB-TSK-0008", "text": true}, cli: "show KB-TSK-0008 --text --branches"},
	{tool: "show", args: obj{"ref": "KB-BUG-0001"}, cli: "show KB-BUG-0001 --branches"},
	{tool: "show", args: obj{"ref": "./" + task8}, cli: "show $REPO/" + task8 + " --branches"},
	{tool: "context", args: obj{"query": "token refresh", "budget": 1500}, cli: "context token refresh --budget 1500"},
	{tool: "context", args: obj{"seeds": []string{"KB-TSK-0008"}, "generated": true}, cli: "context --seed KB-TSK-0008 --generated"},
	// A path is read in each front end's frame: an agent's from the
	// repository's root, a command line's from the working folder (the
	// test's is elsewhere: an absolute path).
	{tool: "context", args: obj{"for": "./" + task8}, cli: "context --for $REPO/" + task8},
	{tool: "context", args: obj{"for": "$REPO/" + task8}, cli: "context --for $REPO/" + task8},
	{tool: "context", args: obj{"for": "_kano/backlog/../backlog/" + strings.TrimPrefix(task8, "_kano/backlog/")}, cli: "context --for $REPO/" + task8},
	{tool: "context", args: obj{"for": "KB-TSK-0008", "budget": 2000}, cli: "context --for KB-TSK-0008 --budget 2000"},
	// The tool's bound of a hundred documents is the command's --max-nodes.
	{tool: "neighbors", args: obj{"ref": "KB-TSK-0008", "depth": 2}, cli: "graph neighbors KB-TSK-0008 --depth 2 --max-nodes 100"},
	{tool: "neighbors", args: obj{"ref": "KB-TSK-0008", "edges": []string{"parent"}, "direction": "out"}, cli: "graph neighbors KB-TSK-0008 --edges parent --direction out --max-nodes 100"},
	{tool: "ready", cli: "ready"},
	{tool: "ready", args: obj{"here": true, "all": true}, cli: "ready --here --all"},
	{tool: "ready", args: obj{"limit": 2, "kinds": []string{"task"}}, cli: "ready --limit 2 --kind task"},
	{tool: "blocked", args: obj{"all": true}, cli: "blocked --all"},
	{tool: "blocked", args: obj{"here": true}, cli: "blocked --here"},
	{tool: "check", args: obj{"all": true}, cli: "check --all", toolOnly: []string{"truncated"}},
	{tool: "check", args: obj{"paths": []string{task8}}, cli: "check $REPO/" + task8, toolOnly: []string{"truncated"}},
	{tool: "check", args: obj{"staged": true}, cli: "check", toolOnly: []string{"truncated"}},
	// When each index was built and synced: the two copies differ.
	{tool: "status", cli: "status", differ: []string{"synced_at", "built_at", "problems.synced_at"}},
	{tool: "query_run", args: obj{"template": "task-context", "seeds": []string{"KB-TSK-0008"}}, cli: "query run task-context --seed KB-TSK-0008"},
	{tool: "query_run", args: obj{"template": "recent-decisions", "budget": 800}, cli: "query run recent-decisions --budget 800"},
	{tool: "workset_new", args: obj{"name": "tokens", "seeds": []string{"KB-TSK-0008"}, "agent": "eq"}, cli: "workset new tokens --seed KB-TSK-0008 --agent eq"},
	{tool: "workset_list", cli: "workset list"},
	{tool: "workset_show", args: obj{"name": "tokens"}, cli: "workset show tokens"},
	{tool: "workset_context", args: obj{"name": "tokens", "budget": 1000}, cli: "workset context tokens --budget 1000"},
	{tool: "workset_resume", args: obj{"name": "tokens"}, cli: "workset resume tokens"},
	{tool: "note", args: obj{"workset": "tokens", "target": "KB-TSK-0008", "kind": "decision", "text": "refresh at 80% of the lifetime"}},
	{tool: "note", args: obj{"workset": "tokens", "target": "KB-TSK-0008", "text": "token refresh wired"}},
	{tool: "workset_show", args: obj{"name": "tokens"}, cli: "workset show tokens"},
	{tool: "promote", args: obj{"workset": "tokens", "agent": "eq"}, cli: "promote tokens --agent eq --dry-run"},
	{tool: "promote", args: obj{"workset": "tokens", "agent": "eq", "apply": true}, cli: "promote tokens --agent eq"},
	{tool: "claims"},
	{tool: "id_next", args: obj{"kind": "task"}, cli: "id next task"},
	{tool: "id_next", args: obj{"kind": "KB-BUG"}, cli: "id next KB-BUG"},
	{tool: "item_set", args: obj{"item": "KB-TSK-0009", "set": []string{"priority=P2"}, "add": []string{"tags=api"}, "dry_run": true}, cli: "set KB-TSK-0009 priority=P2 --add tags=api --dry-run"},
	{tool: "item_new", args: obj{"kind": "task", "title": "Refund:partial", "parent": "KB-TSK-0009", "set": []string{"priority=P1", "tags=api"}, "dry_run": true}, cli: "new task Refund:partial --parent KB-TSK-0009 --set priority=P1 --set tags=api --dry-run"},
	{tool: "item_new", args: obj{"kind": "bug", "title": "Refunds:rounded", "parent": "KB-FTR-0003"}, cli: "new bug Refunds:rounded --parent KB-FTR-0003"},
	{tool: "item_claim", args: obj{"item": "KB-TSK-0009", "as": "eq"}, cli: "claim KB-TSK-0009 --as eq"},
	{tool: "item_log", args: obj{"item": "KB-TSK-0009", "text": "endpoint drafted", "as": "eq"}, cli: "log KB-TSK-0009 endpoint drafted --as eq"},
	{tool: "item_set", args: obj{"item": "KB-TSK-0009", "set": []string{"priority=P2"}}, cli: "set KB-TSK-0009 priority=P2"},
	{tool: "item_log", args: obj{"item": "KB-TSK-0009", "text": "merged", "as": "eq", "done": true}, cli: "done KB-TSK-0009 --log merged --as eq"},
	{tool: "show", args: obj{"ref": "KB-TSK-0009"}, cli: "show KB-TSK-0009 --branches"},
}

// noCommand are the tools no command answers, and why. Their cases run
// the tool on both copies, so that the copies stay the same.
var noCommand = map[string]string{
	"note":   "a person writes notes.md in an editor; the tool is the agent's atomic append (workset.AppendNote)",
	"claims": "canon branches answers per ref and canon ready --json lists what it left out (claimed); claims is the agent's check before it starts (graph.Claims)",
}

// Normalised in every case: the tool's freshness (the server's alone,
// dropped in toolAnswer), each copy's folder in any string (written
// $REPO), and everyAnswerDiffers.
var everyAnswerDiffers = []string{
	"overlay.checked_at", // when the other refs were last looked at: each call's own moment
}

const task8 = "_kano/backlog/products/checkout/items/task/0000/KB-TSK-0008_session-token-refresh.md"

type obj = map[string]any

type mcpCase struct {
	tool string
	args obj
	cli  string // the command line after canon, without --json; "" when noCommand says why
	// toolOnly are the fields the tool adds to the command's answer (its
	// own bounds), left out before comparing.
	toolOnly []string
	// differ are the fields that differ between the two copies whoever
	// answers (times), left out before comparing; a.b is field b of the
	// object a.
	differ []string
}

func TestMCPAnswersAsCLI(t *testing.T) {
	t.Setenv("CANON_NOW", "2026-11-25T12:00:00Z") // the worksets' clock: the same in both copies
	toolDir, cliDir := demoRepo(t), demoRepo(t)
	cs, mirror := mcpClient(t, toolDir), mcpClient(t, cliDir)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, c := range mcpCases {
		covered[c.tool] = true
		if (c.cli == "") != (noCommand[c.tool] != "") {
			t.Errorf("tool %s: a case has a command line, or has none, against noCommand", c.tool)
		}
	}
	for _, tool := range list.Tools {
		if !covered[tool.Name] {
			t.Errorf("tool %s has no case in mcpCases: add the command that answers the same (or a line in noCommand saying why none does)", tool.Name)
		}
	}
	for _, c := range mcpCases {
		got := toolAnswer(t, cs, c, toolDir)
		var want map[string]any
		if c.cli == "" {
			want = toolAnswer(t, mirror, c, cliDir)
		} else {
			want = cliAnswer(t, c, cliDir)
		}
		for _, f := range c.toolOnly {
			drop(got, f)
		}
		for _, f := range append(c.differ, everyAnswerDiffers...) {
			drop(got, f)
			drop(want, f)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", "  ")
			w, _ := json.MarshalIndent(want, "", "  ")
			t.Errorf("tool %s %v answers otherwise than canon %s --json:\n%s", c.tool, c.args, c.cli, lineDiff(string(w), string(g)))
		}
	}
}

// toolAnswer calls the tool on the copy in dir and returns its structured
// answer without its freshness, the folder written $REPO.
func toolAnswer(t *testing.T, cs *mcp.ClientSession, c mcpCase, dir string) map[string]any {
	t.Helper()
	args := map[string]any{}
	for k, v := range c.args {
		if s, ok := v.(string); ok {
			v = strings.ReplaceAll(s, "$REPO", dir)
		}
		args[k] = v
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", c.tool, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: %v", c.tool, c.args, res.Content[0].(*mcp.TextContent).Text)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	out := decodeAnswer(t, data, dir)
	if _, ok := out["freshness"]; !ok {
		t.Errorf("%s: no freshness", c.tool)
	}
	delete(out, "freshness")
	return out
}

// drop deletes the field at path (a.b: field b of the object at a).
func drop(m map[string]any, path string) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		delete(m, path)
		return
	}
	if sub, ok := m[head].(map[string]any); ok {
		drop(sub, rest)
	}
}

// cliAnswer runs the case's command with --json in dir, in process.
func cliAnswer(t *testing.T, c mcpCase, dir string) map[string]any {
	t.Helper()
	args := []string{"canon", "-C", dir}
	for _, a := range strings.Fields(c.cli) {
		args = append(args, strings.ReplaceAll(a, "$REPO", dir))
	}
	var stdout, stderr bytes.Buffer
	if code := run(append(args, "--json"), &stdout, &stderr); code > 1 { // 1: check found errors
		t.Fatalf("canon %s: exit %d\n%s", c.cli, code, stderr.String())
	}
	return decodeAnswer(t, stdout.Bytes(), dir)
}

func decodeAnswer(t *testing.T, data []byte, dir string) map[string]any {
	t.Helper()
	data = bytes.ReplaceAll(data, []byte(dir), []byte("$REPO"))
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return out
}

// demoRepo is the demo's repository (scripts/demo.sh, make demo): the
// example backlog committed in a new repository, then canon init. Its
// commits are the same in every copy.
func demoRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/example")); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Canon Demo", "GIT_AUTHOR_EMAIL=demo@canon.invalid", "GIT_COMMITTER_NAME=Canon Demo",
			"GIT_COMMITTER_EMAIL=demo@canon.invalid", "GIT_AUTHOR_DATE=2026-11-20T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-20T10:00:00Z",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "Checkout backlog")
	// Another branch takes an item and finishes a blocker, so that the
	// answers carry what other refs do (ADR-0042).
	git("checkout", "-q", "-b", "agent")
	for p, edit := range map[string][2]string{
		"_kano/backlog/products/checkout/items/bug/0000/KB-BUG-0001_double-charge-on-double-click.md": {"state: Review", "state: InProgress\nassignee: agent"},
		"_kano/backlog/products/checkout/items/task/0000/KB-TSK-0005_dedupe-webhook-events.md":        {"state: Review", "state: Done"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(strings.Replace(string(data), edit[0], edit[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("commit", "-qam", "take KB-BUG-0001, finish KB-TSK-0005")
	git("checkout", "-q", "main")
	var out bytes.Buffer
	if code := run([]string{"canon", "-C", dir, "init"}, &out, &out); code != 0 {
		t.Fatalf("canon init: %d\n%s", code, out.String())
	}
	return dir
}

// mcpClient serves the repository in dir in process and connects a client.
func mcpClient(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(context.Background(), dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// lineDiff lists the lines of want missing from got (-) and those of got
// missing from want (+).
func lineDiff(want, got string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	w, g := count(want), count(got)
	var out []string
	for l, n := range w {
		if g[l] < n {
			out = append(out, "- "+l)
		}
	}
	for l, n := range g {
		if w[l] < n {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	if len(out) > 40 {
		out = append(out[:40], "...")
	}
	return strings.Join(out, "\n")
}

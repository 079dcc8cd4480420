package main

import (
	"bytes"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// terminalRuns are the text-output commands TestTerminalQuotesControls
// runs on a repository whose titles, ids, headings, snippets and paths
// hold ESC, BEL, CR and newlines: every command but the servers (watch,
// mcp, serve), each at least once.
var terminalRuns = [][]string{
	{"init"},
	{"index", "--full"},
	{"status"},
	{"search", "zebra"},
	{"show", "EV-1"},
	{"show", "EV-1", "--text"},
	{"problems"},
	{"check"},
	{"check", "--fix", "--dry-run"},
	{"sync"},
	{"verify"},
	{"hooks", "status"},
	{"hooks", "install"},
	{"hooks", "uninstall"},
	{"hook", "sync"},
	{"graph", "neighbors", "EV-1", "--depth", "2"},
	{"graph", "path", "EV-1", "items/b.md"},
	{"graph", "stats"},
	{"graph", "export"},
	{"graph", "export", "--format", "mermaid"},
	{"context", "zebra"},
	{"context", "--seed", "EV-1"},
	{"scope", "suggest", "--min", "1"},
	{"ready"},
	{"blocked"},
	{"branches"},
	{"show", "EV-1", "--branches"},
	{"search", "zebra", "--branches"},
	{"query", "list"},
	{"query", "show", "task-context"},
	{"query", "run", "task-context", "--seed", "EV-1"},
	{"query", "validate"},
	{"workset", "new", "w", "--seed", "EV-1", "--depth", "2"},
	{"workset", "list"},
	{"workset", "show", "w"},
	{"workset", "search", "w", "zebra"},
	{"workset", "context", "w"},
	{"workset", "refresh", "w"},
	{"workset", "checkpoint", "w", "--note", "half way"},
	{"workset", "resume", "w"},
	{"workset", "export", "w"},
	{"workset", "export", "w", "--output", "handoff.md"},
	{"workset", "import", "handoff.md", "--name", "w2"},
	{"id", "next", "EV"},
	{"id", "rename", "EV-3", "EV-9", "--dry-run"},
	{"id", "fix", "--dry-run"},
	{"new", "EV", "Fresh item", "--dry-run"},
	{"new", "EV", "Another", "--parent", "EV-3"},
	{"set", "EV-1", "priority=high", "--dry-run"},
	{"claim", "EV-1", "--as", "t", "--dry-run"},
	{"log", "EV-1", "checked", "--as", "t"},
	{"done", "EV-1", "--dry-run"},
	{"promote", "w", "--dry-run"},
	{"promote", "w"},
	{"workset", "rm", "w", "--force"},
	{"workset", "gc"},
	{"agents-md"},
	{"vectors", "import", "vec\x1b]52;c;SGVsbG8=\x07\nFORGED-VEC.txt"},
	{"vectors", "remove"},
	// Last: it writes the merge into items/c.md. The path is git's %P,
	// repository text the conflict note prints.
	{"merge-driver", "items/b.md", "items/c.md", "items/evil.md", "7", "items/new\nFORGED-PATH\x1b[2J.md"},
}

// rawControl is a control byte a terminal acts on: all of C0 but the tab
// and the line feed, a CR not before a LF, DEL, and C1 in UTF-8.
var rawControl = regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u0080-\u009f]|\r[^\n]|\r$")

// TestTerminalQuotesControls: no command writes a control character of
// the repository's text to the terminal, nor lets a newline in a title,
// id, heading or path start a line of its own (ADR-0033). An OSC 52
// title wrote the clipboard and cleared the screen.
func TestTerminalQuotesControls(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	must.OK(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = T\n\temail = t@canon.invalid\n[init]\n\tdefaultBranch = main\n"), 0o644))
	const osc52 = "\x1b]52;c;SGVsbG8=\x07\x1b[2J"
	files := map[string]string{
		"items/evil.md": "---\nid: EV-1\ntitle: \"Evil \\e]52;c;SGVsbG8=\\a\\e[2J\\r title\\nFORGED-TITLE\"\nstate: Open\n" +
			"priority: \"\\e[31mP1\"\nblocked_by: [\"EV-2\\e[1m\"]\nparent: EV-3\n---\n# Evil\n\n" +
			"## Heading " + osc52 + " bell\r here\n\nThe word zebra " + osc52 + " and more zebra text.\n\n" +
			"[gone](gone" + osc52 + ".md) and [nl](items/new%0Aline.md)\n\n## Worklog\n\n- 2025-01-01 10:00 started\n",
		"items/b.md":                       "---\nid: \"EV-2\\e[1m\"\ntitle: \"Blocker\\nFORGED-ID\"\nstate: Open\n---\n# B\n\nzebra " + osc52 + "\n",
		"items/c.md":                       "---\nid: EV-3\ntitle: Epic\nstate: Open\nscope: task\n---\n# Epic\n",
		"items/new\nFORGED-PATH\x1b[2J.md": "---\nid: EV-4\ntitle: \"Path \\e[2J\"\nrelates: [EV-1]\n---\n# " + osc52 + " heading\n\nzebra\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "evil " + osc52}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// A branch whose version of EV-1 and EV-2 is hostile too: the overlays
	// (ready, blocked, branches, show and search --branches) print it.
	side := map[string]string{
		"items/evil.md": strings.Replace(files["items/evil.md"], "state: Open", "state: \"Done \\e]52;c;SGVsbG8=\\a\\nFORGED-STATE\"\nassignee: \"\\e[2Jme\"", 1),
		"items/b.md":    strings.Replace(files["items/b.md"], "state: Open", "state: \"Taken\\r\\nFORGED-CLAIM\"", 1),
		"items/d.md":    "---\nid: \"EV-5\\e[2J\"\ntitle: \"zebra \\e]52;c;SGVsbG8=\\a\\nFORGED-NEW\"\nstate: Open\n---\n",
	}
	gitDo := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitDo("switch", "-q", "-c", "side")
	for name, body := range side {
		must.OK(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644))
	}
	gitDo("add", "-A")
	gitDo("commit", "-q", "-m", "side")
	gitDo("switch", "-q", "main")
	forged := regexp.MustCompile(`(?m)^FORGED`)
	for _, args := range terminalRuns {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"canon", "-C", dir}, args...), &stdout, &stderr)
		for name, out := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
			if m := rawControl.Find(out); m != nil {
				t.Errorf("canon %s (exit %d): %s holds the raw control %q:\n%s", strings.Join(args, " "), code, name, m, out)
			}
			if forged.Match(out) {
				t.Errorf("canon %s (exit %d): %s has a line a newline of the repository's text started:\n%s", strings.Join(args, " "), code, name, out)
			}
		}
		if stdout.Len()+stderr.Len() == 0 && args[0] != "hook" {
			t.Errorf("canon %s printed nothing", strings.Join(args, " "))
		}
	}
	// Every command is among the runs.
	ran := map[string]bool{}
	for _, args := range terminalRuns {
		ran[args[0]] = true
		if len(args) > 1 {
			ran[args[0]+" "+args[1]] = true
		}
	}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			switch {
			case c.Name == "help" || name == "watch" || name == "mcp" || name == "serve":
				continue
			case len(c.Subcommands) > 0:
				walk(name, c.Subcommands)
			case !ran[name]:
				t.Errorf("canon %s is not among terminalRuns", name)
			}
		}
	}
	walk("", newApp(&env{}).Commands)
}

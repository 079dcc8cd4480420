package hooks

import (
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocSnippets holds docs/hook-managers.md to the snippet files canon
// prints and adds, which the integration tests (cmd/canon TestHookManagers)
// run with the real managers.
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/hook-managers.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(data)
	blocks := map[string]bool{}
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(section, -1) {
		blocks[m[1]] = true
	}
	for _, m := range Managers {
		if !blocks[Snippet(m)] {
			t.Errorf("docs/hook-managers.md has no code block that is exactly hooks/snippets' %s snippet:\n%s", m, Snippet(m))
		}
	}
	manifest, err := os.ReadFile("../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for id := range preCommitStages {
		if !strings.Contains(string(manifest), "- id: "+id+"\n") {
			t.Errorf(".pre-commit-hooks.yaml has no hook %s", id)
		}
		if !strings.Contains(preCommitSnippet, "- id: "+id+" ") {
			t.Errorf("the pre-commit snippet does not use %s", id)
		}
	}
}

func TestHuskyAndLefthookSnippetsCoverEveryHook(t *testing.T) {
	t.Parallel()
	lines, entries := huskyLines(), lefthookEntries()
	for _, name := range Names {
		if !strings.Contains(lines[name], "canon hook "+name+` "$@"`) {
			t.Errorf("husky line for %s: %q", name, lines[name])
		}
		if len(entries[name]) < 2 || !strings.Contains(entries[name][1], "canon hook "+name) {
			t.Errorf("lefthook entry for %s: %q", name, entries[name])
		}
	}
}

func TestAddToManagerCreatesTheSnippet(t *testing.T) {
	t.Parallel()
	for _, m := range []Manager{Lefthook, PreCommit} {
		dir := t.TempDir()
		if _, err := AddToManager(dir, m); err != nil {
			t.Fatal(err)
		}
		name := map[Manager]string{Lefthook: "lefthook.yml", PreCommit: preCommitConfig}[m]
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if string(got) != Snippet(m) {
			t.Errorf("%s: created\n%s\nwant the snippet", m, got)
		}
		if _, err := RemoveFromManager(dir, m); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s: uninstall left the file canon created", m)
		}
	}
}

func TestPreCommitMinimalEdit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, before, after string }{
		{"flow types, repos before another key", `default_install_hook_types: [pre-commit, pre-push]  # ours
repos:
-   repo: local
    hooks:
    -   id: lint
        name: lint
        entry: echo
        language: system

exclude: ^vendor/
`, `default_install_hook_types: [pre-commit, pre-push, post-commit, post-checkout, post-merge, post-rewrite]
repos:
-   repo: local
    hooks:
    -   id: lint
        name: lint
        entry: echo
        language: system
- repo: https://github.com/canon-md/canon
  rev: v0.1.0
  hooks:
    - id: canon-check      # git commit: validate what is staged
    - id: canon-check-all  # pre-commit run --all-files (CI): canon check --all
    - id: canon-sync       # after commit, checkout, merge, rewrite: keep the index at HEAD
    - id: canon-push       # git push: ids the remote side minted too

exclude: ^vendor/
`},
		{"no types, block list", `repos:
  - repo: local
    hooks: []
`, `default_install_hook_types: [pre-commit, post-commit, post-checkout, post-merge, post-rewrite, pre-push]
repos:
  - repo: local
    hooks: []
  - repo: https://github.com/canon-md/canon
    rev: v0.1.0
    hooks:
      - id: canon-check      # git commit: validate what is staged
      - id: canon-check-all  # pre-commit run --all-files (CI): canon check --all
      - id: canon-sync       # after commit, checkout, merge, rewrite: keep the index at HEAD
      - id: canon-push       # git push: ids the remote side minted too
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, preCommitConfig)
			must.OK(t, os.WriteFile(p, []byte(tc.before), 0o644))
			if _, err := AddToManager(dir, PreCommit); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tc.after {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.after)
			}
			// Again: nothing changes.
			_, err := AddToManager(dir, PreCommit)
			must.OK(t, err)
			if again, _ := os.ReadFile(p); string(again) != tc.after {
				t.Fatalf("a second add changed the file:\n%s", again)
			}
			_, err = RemoveFromManager(dir, PreCommit)
			must.OK(t, err)
			got, _ = os.ReadFile(p)
			if !strings.Contains(string(got), "repo: local") || strings.Contains(string(got), "canon-md") {
				t.Fatalf("remove left\n%s", got)
			}
		})
	}
}

func TestHuskyEdit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	must.OK(t, os.MkdirAll(filepath.Join(dir, ".husky"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(dir, ".husky", "pre-commit"), []byte("npm test"), 0o644)) // no final newline
	if _, err := AddToManager(dir, Husky); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".husky", "pre-commit"))
	if want := "npm test\n" + huskyLines()["pre-commit"] + "\n"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	_, err := RemoveFromManager(dir, Husky)
	must.OK(t, err)
	got, _ = os.ReadFile(filepath.Join(dir, ".husky", "pre-commit"))
	if string(got) != "npm test\n" {
		t.Fatalf("after remove: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".husky", "post-merge")); !os.IsNotExist(err) {
		t.Fatal("remove left a script canon created")
	}
}

func TestPreCommitEvent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		name string
		args []string
	}{
		{map[string]string{"PRE_COMMIT_CHECKOUT_TYPE": "0", "PRE_COMMIT_FROM_REF": "a", "PRE_COMMIT_TO_REF": "b"}, "post-checkout", []string{"a", "b", "0"}},
		{map[string]string{"PRE_COMMIT_IS_SQUASH_MERGE": "1"}, "post-merge", []string{"1"}},
		{map[string]string{"PRE_COMMIT_REWRITE_COMMAND": "rebase"}, "post-rewrite", []string{"rebase"}},
		{map[string]string{}, "sync", nil},
	} {
		name, args := PreCommitEvent(func(k string) string { return tc.env[k] })
		if name != tc.name || strings.Join(args, " ") != strings.Join(tc.args, " ") {
			t.Errorf("%v: got %s %v, want %s %v", tc.env, name, args, tc.name, tc.args)
		}
	}
}

// TestHuskyLinePlacement: in a post-* script canon's line goes before the
// first command (husky runs the script with sh -e, so a command that
// fails would skip a line after it), after the shebang, comments and
// husky 8's helper; in pre-commit it goes last.
func TestHuskyLinePlacement(t *testing.T) {
	t.Parallel()
	c := "CANON\n"
	for _, tc := range []struct {
		name, hook, in, want string
	}{
		{"post first", "post-checkout", "bun install\n", c + "bun install\n"},
		{"after shebang and helper", "post-merge", "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\n# deps\nbun install", "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\n# deps\n" + c + "bun install\n"},
		{"empty", "post-commit", "", c},
		{"pre-commit last", "pre-commit", "npm test\n", "npm test\n" + c},
	} {
		if got := string(placeHuskyLine([]byte(tc.in), tc.hook, "CANON")); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		hook, in, cmd string
	}{
		{"post-checkout", "bun install\ncanon hook post-checkout\n", "bun install"},
		{"post-checkout", "bun install || true\ncanon hook post-checkout\n", ""},
		{"post-checkout", "canon hook post-checkout\nbun install\n", ""},
		{"pre-commit", "npm test\ncanon hook pre-commit\n", ""},
	} {
		if cmd, _, _ := huskySkipper([]byte(tc.in), tc.hook); cmd != tc.cmd {
			t.Errorf("%s %q: skipper %q, want %q", tc.hook, tc.in, cmd, tc.cmd)
		}
	}
}
